import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSnoozeDuration } from '../../src/cli/notifyctl/snooze.js';
import { useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { callJson, enabledRouteTo, OUTBOX_BROKER } from '../support/outbox-broker.js';

describe('notifyctl snooze', () => {
  const broker = useBroker();
  const env = () => broker.home.env;
  const create = async (body: Record<string, unknown>) => {
    const response = await broker.request('POST', '/v1/notifications', { message: 'm', ...body });
    assert.equal(response.status, 201);
    return (await response.json()) as { id: string };
  };
  const hhmm = (iso: string) => {
    const at = new Date(iso);
    return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  };

  it('reads 15m, 15, 2h and 1h30m as minutes, and nothing else', () => {
    const TABLE: [string, number | undefined][] = [
      ['15m', 15],
      ['15', 15],
      ['2h', 120],
      ['1h30m', 90],
      ['1H', 60],
      ['', undefined],
      ['m', undefined],
      ['15s', undefined],
      ['-5m', undefined],
      ['1.5h', undefined],
    ];
    for (const [text, minutes] of TABLE) assert.equal(parseSnoozeDuration(text), minutes, text);
  });

  it('snoozes by id and by key, says until when, and stores it', async () => {
    const { id } = await create({ title: 'By id', type: 'input_required' });
    const byId = await runNotifyctl(['snooze', id, '15m'], { env: env() });
    assert.equal(byId.stderr, '');
    assert.equal(byId.code, 0);
    const stored = (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as {
      snoozedUntil: string;
      updatedAt: string;
    };
    assert.ok(Math.abs(Date.parse(stored.snoozedUntil) - (Date.now() + 15 * 60_000)) < 10_000);
    assert.equal(byId.stdout, `${id} snoozed until ${hhmm(stored.snoozedUntil)}\n`);
    // 24h is the longest snooze the help promises, and it is taken.
    const aDay = await runNotifyctl(['snooze', id, '24h', '--json'], { env: env() });
    assert.deepEqual([aDay.code, aDay.stderr], [0, '']);
    const untilTomorrow = (JSON.parse(aDay.stdout) as { snoozedUntil: string }).snoozedUntil;
    assert.ok(Math.abs(Date.parse(untilTomorrow) - (Date.now() + 24 * 60 * 60_000)) < 10_000);

    const keyed = await create({ title: 'By key', key: 'deploy-gate', type: 'permission_required' });
    const byKey = await runNotifyctl(['snooze', '--key', 'deploy-gate', '2h', '--json'], { env: env() });
    assert.equal(byKey.code, 0);
    const json = JSON.parse(byKey.stdout) as { id: string; snoozedUntil: string };
    assert.equal(json.id, keyed.id);
    assert.ok(Math.abs(Date.parse(json.snoozedUntil) - (Date.now() + 120 * 60_000)) < 10_000);
  });

  it('by key, snoozes the active notification of that key, never an ended one with the same key', async () => {
    const resolve = (id: string) =>
      broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    const older = await create({ title: 'Release gate', key: 'release-gate', type: 'permission_required' });
    await resolve(older.id);
    const none = await runNotifyctl(['snooze', '--key', 'release-gate', '15m'], { env: env() });
    assert.deepEqual(
      [none.code, none.stderr, none.stdout],
      [3, 'no active notification has key "release-gate"\n', ''],
    );
    // A newer one with the key ended; the older one is open again: the key means the open one.
    const newer = await create({ title: 'Release gate', key: 'release-gate', type: 'permission_required' });
    await resolve(newer.id);
    const reopened = await broker.request('PATCH', `/v1/notifications/${older.id}`, { status: 'active' });
    assert.equal(reopened.status, 200);
    const byKey = await runNotifyctl(['snooze', '--key', 'release-gate', '15m', '--json'], { env: env() });
    assert.equal(byKey.stderr, '');
    assert.equal((JSON.parse(byKey.stdout) as { id: string }).id, older.id);
  });

  it('refuses a wrong duration, an unknown id or key, and a closed notification, with their exit codes', async () => {
    const { id } = await create({ title: 'Closed', type: 'info' });
    await broker.request('POST', `/v1/notifications/${id}/dismiss`);
    const CASES: [string[], number, string][] = [
      [
        ['snooze', id, '25h'],
        1,
        'the duration must be minutes or hours from 1m to 24h, such as 15m, 90m or 2h.\n',
      ],
      [
        ['snooze', id, 'soon'],
        1,
        'the duration must be minutes or hours from 1m to 24h, such as 15m, 90m or 2h.\n',
      ],
      [
        ['snooze', id],
        1,
        'snooze needs a notification (<id> or --key <key>) and a duration. Usage: notifyctl snooze <id> <duration> | notifyctl snooze --key <key> <duration> [--json].\n',
      ],
      [['snooze', '--key', 'nothing-here', '15m'], 3, 'no active notification has key "nothing-here"\n'],
      [
        ['snooze', id, '15m'],
        1,
        'Error 409 Conflict: notification is dismissed; only an active notification can be snoozed\n',
      ],
    ];
    for (const [args, code, stderr] of CASES) {
      const result = await runNotifyctl(args, { env: env() });
      assert.deepEqual([result.code, result.stderr, result.stdout], [code, stderr, ''], args.join(' '));
    }
    const missing = await runNotifyctl(['snooze', 'nope', '15m'], { env: env() });
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /^Error 404 Not Found: notification not found\n/);
  });
});

describe('notifyctl routes --quiet-hours', () => {
  const broker = useBroker({ script: OUTBOX_BROKER });
  const env = () => broker.home.env;

  it('says whether a route sends during quiet hours, sets it, and refuses anything but send or wait', async () => {
    const { routeId, providerId } = await enabledRouteTo(broker, 'http://127.0.0.1:9/unused', {
      name: 'phone',
    });
    const send = await runNotifyctl(['routes', 'set', routeId, '--quiet-hours', 'send'], { env: env() });
    assert.equal(send.stderr, '');
    assert.equal(
      send.stdout,
      `${routeId} phone -> ${providerId} enabled (priority>=low, sends during quiet hours)\n`,
    );
    assert.equal(
      (await callJson(broker, 'GET', `/v1/routes/${routeId}`)).body!['sendDuringQuietHours'],
      true,
    );
    const wait = await runNotifyctl(['routes', 'set', routeId, '--quiet-hours', 'wait'], { env: env() });
    assert.equal(wait.stdout, `${routeId} phone -> ${providerId} enabled (priority>=low)\n`);
    const wrong = await runNotifyctl(['routes', 'set', routeId, '--quiet-hours', 'never'], { env: env() });
    assert.deepEqual([wrong.code, wrong.stderr], [1, '--quiet-hours must be send or wait.\n']);
    const refused = await callJson(broker, 'PATCH', `/v1/routes/${routeId}`, { sendDuringQuietHours: 'yes' });
    assert.deepEqual(
      [refused.status, refused.body!['error']],
      [400, 'sendDuringQuietHours must be true or false'],
    );
  });
});
