import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess, type TempHome } from '../support/broker-process.js';
import { createDrivenClock, type DrivenClock } from '../support/driven-clock.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';
import { callJson, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { runNode } from '../support/run-node.js';
import { waitFor } from '../support/wait-for.js';

const DELAY_S = 300;

/**
 * Routes that wait (issue 20): the real broker on a driven clock, a route with a five-minute delay to
 * the test HTTP provider and a real local receiver. The clock jumps; nothing sleeps.
 */
describe('a route that waits', () => {
  let receiver: Receiver;
  let home: TempHome;
  let clock: DrivenClock;
  let broker: BrokerProcess;
  let routeId = '';
  let providerId = '';

  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const create = async (body: Record<string, unknown>) => {
    const created = await json('POST', '/v1/notifications', { message: 'm', ...body });
    assert.ok(created.status === 201 || created.status === 200, JSON.stringify(created.body));
    return created.body!;
  };
  const itemsOf = async (notificationId: string) =>
    ((await json('GET', '/v1/outbox?limit=500')).body as unknown as Body[]).filter(
      (item) => item['notificationId'] === notificationId,
    );
  const received = () =>
    receiver.received.map(
      (request) => `${request.body['event'] as string} ${(request.body['notification'] as Body)['title']}`,
    );
  /** Waits until the receiver saw `count` requests and the outbox holds nothing left to send. */
  const settled = async (count: number) => {
    await waitFor(() => receiver.received.length >= count, `${count} request(s) at the receiver`);
    await waitFor(async () => {
      const counts = (await json('GET', '/v1/outbox/counts')).body!;
      return counts['pending'] === 0 && counts['in_flight'] === 0;
    }, 'an outbox with nothing due or under way');
  };

  before(async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  after(() => receiver.close());
  beforeEach(async () => {
    receiver.received.length = 0;
    home = createTempHome();
    clock = createDrivenClock();
    broker = await startBroker({ home, ...clock.options });
    const provider = await json('POST', '/v1/providers', {
      kind: 'test-http',
      settings: { url: receiver.url },
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    const route = await json('POST', '/v1/routes', {
      providerId: provider.body!['id'],
      minimumPriority: 'low',
      delaySeconds: DELAY_S,
    });
    assert.equal(route.status, 201, JSON.stringify(route.body));
    assert.equal(route.body!['delaySeconds'], DELAY_S);
    routeId = route.body!['id'] as string;
    providerId = provider.body!['id'] as string;
    for (const path of [`/v1/providers/${provider.body!['id']}`, `/v1/routes/${routeId}`])
      assert.equal((await json('POST', `${path}/enable`)).status, 200);
  });
  afterEach(async () => {
    await broker.stop();
    home.cleanup();
    clock.cleanup();
  });

  it('sends nothing for a request resolved, dismissed or answered before the delay ends', async () => {
    const resolved = await create({ title: 'resolved at the desk', type: 'input_required' });
    const dismissed = await create({ title: 'dismissed at the desk' });
    const answered = await create({
      title: 'answered at the desk',
      type: 'permission_required',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    const left = await create({ title: 'left alone' });
    const [waiting] = await itemsOf(resolved['id'] as string);
    assert.equal(waiting!['state'], 'waiting');
    assert.equal(
      Date.parse(waiting!['waitingUntil'] as string) - Date.parse(resolved['createdAt'] as string),
      DELAY_S * 1000,
      'due when the delay after the notification ends',
    );

    await clock.advance(broker, 60_000);
    assert.equal(
      (await json('PATCH', `/v1/notifications/${resolved['id']}`, { status: 'resolved' })).status,
      200,
    );
    assert.equal((await json('POST', `/v1/notifications/${dismissed['id']}/dismiss`)).status, 200);
    assert.equal(
      (await json('POST', `/v1/notifications/${answered['id']}/answer`, { action: 'allow', surface: 'cli' }))
        .status,
      200,
    );
    for (const handled of [resolved, dismissed, answered]) {
      const items = await itemsOf(handled['id'] as string);
      assert.deepEqual(
        items.map((item) => [item['operation'], item['state'], item['attempts'], item['waitingUntil']]),
        [['send', 'cancelled', 0, null]],
        `${handled['title'] as string}: its send is cancelled and nothing else is queued`,
      );
    }

    await clock.advance(broker, (DELAY_S + 1) * 1000);
    await settled(1);
    assert.deepEqual(received(), ['notification.created left alone'], 'only the request nobody handled');
    assert.equal((await itemsOf(left['id'] as string))[0]!['state'], 'delivered');
    const counts = (await json('GET', '/v1/outbox/counts')).body!;
    assert.deepEqual([counts['cancelled'], counts['delivered'], counts['waiting']], [3, 1, 0]);
  });

  it('sends once the delay ended, then keeps the phone in step: an update edits it, a resolve clears it', async () => {
    const request = await create({ title: 'still waiting', key: 'k1', type: 'input_required' });
    await clock.advance(broker, (DELAY_S - 1) * 1000);
    assert.equal((await itemsOf(request['id'] as string))[0]!['state'], 'waiting', 'a second to go');
    await clock.advance(broker, 2_000);
    await settled(1);
    assert.deepEqual(received(), ['notification.created still waiting']);

    await create({ title: 'still waiting, now urgent', key: 'k1', type: 'input_required' });
    await settled(2);
    assert.equal(
      (await json('PATCH', `/v1/notifications/${request['id']}`, { status: 'resolved' })).status,
      200,
    );
    await settled(3);
    assert.deepEqual(received(), [
      'notification.created still waiting',
      'notification.updated still waiting, now urgent',
      'notification.resolved still waiting, now urgent',
    ]);
  });

  it('sends once, with the newest content, when the request is updated during the delay; updates do not move it', async () => {
    const first = await create({ title: 'v1', key: 'k2' });
    await clock.advance(broker, 200_000);
    await create({ title: 'v2', key: 'k2' });
    const latest = await create({ title: 'v3', key: 'k2', priority: 'high' });
    assert.equal(latest['id'], first['id'], 'updated in place');
    const [item] = await itemsOf(first['id'] as string);
    assert.equal(item!['state'], 'waiting');
    assert.equal(
      Date.parse(item!['waitingUntil'] as string) - Date.parse(first['createdAt'] as string),
      DELAY_S * 1000,
    );
    await clock.advance(broker, 101_000);
    await settled(1);
    assert.deepEqual(received(), ['notification.created v3']);
    assert.equal((receiver.received[0]!.body['notification'] as Body)['priority'], 'high');
    assert.equal((await itemsOf(first['id'] as string)).length, 1, 'one item: the send, no updates');
  });

  it('keeps the delay across kill -9 and a restart, and still cancels a request handled after the restart', async () => {
    const handled = await create({ title: 'handled after the restart' });
    const unhandled = await create({ title: 'never handled' });
    const before = await itemsOf(handled['id'] as string);
    await clock.advance(broker, 100_000);
    await broker.kill();
    broker = await startBroker({ home, port: broker.port, ...clock.options });

    assert.deepEqual(
      (await itemsOf(handled['id'] as string)).map((item) => [item['state'], item['waitingUntil']]),
      before.map((item) => ['waiting', item['waitingUntil']]),
      'the due time is in the database',
    );
    assert.equal(
      (await json('PATCH', `/v1/notifications/${handled['id']}`, { status: 'resolved' })).status,
      200,
    );
    assert.equal((await itemsOf(handled['id'] as string))[0]!['state'], 'cancelled');
    assert.equal(receiver.received.length, 0, 'nothing went out before the delay ended');

    await clock.advance(broker, DELAY_S * 1000);
    await settled(1);
    assert.deepEqual(received(), ['notification.created never handled']);
    assert.equal((await itemsOf(unhandled['id'] as string))[0]!['state'], 'delivered');
  });

  it('notifyctl outbox shows a waiting send with its time and a cancelled one; notifyctl routes shows the delay', async () => {
    const ctl = (...args: string[]) =>
      runNode(NOTIFYCTL, [...args, '--port', String(broker.port)], { env: home.env });
    const waiting = await create({ title: 'waits' });
    const cancelled = await create({ title: 'handled' });
    await json('PATCH', `/v1/notifications/${cancelled['id']}`, { status: 'dismissed' });
    const [item] = await itemsOf(waiting['id'] as string);
    const until = new Date(item!['waitingUntil'] as string);
    const time = until.toISOString().slice(11, 19);
    const shown =
      until.toISOString().slice(0, 10) === new Date().toISOString().slice(0, 10)
        ? time
        : `${until.toISOString().slice(0, 10)} ${time}`;

    const [provider] = (await (await broker.request('GET', '/v1/providers')).json()) as { name: string }[];
    const to = `${provider!.name} (${item!['providerId'] as string})`;
    const listed = await ctl('outbox', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split('\n');
    assert.deepEqual(lines, [
      `${(await itemsOf(cancelled['id'] as string))[0]!['id']} cancelled send ${cancelled['id']} -> ${to} (cancelled: handled before its route's delay ended; nothing was sent)`,
      `${item!['id']} waiting send ${waiting['id']} -> ${to} (waiting until ${shown}, cancelled if handled)`,
    ]);
    const only = await ctl('outbox', 'list', '--state', 'waiting', '--json');
    assert.deepEqual(
      (JSON.parse(only.stdout) as Body[]).map((each) => each['notificationId']),
      [waiting['id']],
    );
    const counts = await ctl('outbox', 'counts');
    assert.match(counts.stdout, /^waiting: 1\npending: 0\n.*\ncancelled: 1\n$/s);

    const routes = await ctl('routes', 'list');
    assert.match(routes.stdout, new RegExp(`^${routeId} .* enabled \\(priority>=low, waits 5m\\)\\n$`));
    const set = await ctl('routes', 'set', routeId, '--delay', '90s');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /waits 90s\)$/m);
    const tooLong = await ctl('routes', 'set', routeId, '--delay', '25h');
    assert.equal(tooLong.code, 1);
    assert.match(
      tooLong.stderr,
      /delaySeconds must be a whole number of seconds from 0 \(send at once\) to 86400 \(a day\)/,
    );
    const unclear = await ctl('routes', 'set', routeId, '--delay', 'soon');
    assert.equal(unclear.code, 1);
    assert.match(
      unclear.stderr,
      /--delay must be a number of seconds, or of minutes or hours such as 90s, 5m or 1h/,
    );
  });

  it('still cancels the waiting send when its route was disabled during the delay', async () => {
    const request = await create({ title: 'route switched off meanwhile' });
    assert.equal((await json('POST', `/v1/routes/${routeId}/disable`)).status, 200);
    assert.equal(
      (await json('PATCH', `/v1/notifications/${request['id']}`, { status: 'resolved' })).status,
      200,
    );
    await clock.advance(broker, (DELAY_S + 1) * 1000);
    assert.deepEqual(
      (await itemsOf(request['id'] as string)).map((item) => item['state']),
      ['cancelled'],
    );
    assert.equal(receiver.received.length, 0);
  });

  it('inside quiet hours waits for their end too, and is still cancelled if handled; a route without a delay still sends', async () => {
    const day = new Date();
    const todayAt = (hours: number) =>
      Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours);
    const morning = todayAt(7) + 24 * 3600_000;
    const iso = (at: number) => new Date(at).toISOString().replace('Z', '+00:00');
    const atOnce = await json('POST', '/v1/routes', { providerId, minimumPriority: 'low' });
    assert.equal((await json('POST', `/v1/routes/${atOnce.body!['id'] as string}/enable`)).status, 200);
    const quietHours = { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' };
    assert.equal((await json('PATCH', '/v1/settings', { quietHours })).status, 200);
    await clock.set(broker, todayAt(23));

    const request = await create({ title: 'asked at night', type: 'input_required' });
    const byRoute = async () =>
      new Map((await itemsOf(request['id'] as string)).map((item) => [item['routeId'], item]));
    const held = await byRoute();
    assert.deepEqual(
      [held.get(routeId)!['state'], held.get(routeId)!['waitingUntil'], held.get(routeId)!['nextAttemptAt']],
      ['waiting', iso(morning), iso(morning)],
      'due at the end of quiet hours, later than the end of its delay',
    );
    assert.deepEqual(
      [held.get(atOnce.body!['id'])!['state'], held.get(atOnce.body!['id'])!['nextAttemptAt']],
      ['pending', iso(morning)],
    );

    await clock.advance(broker, (DELAY_S + 60) * 1000);
    assert.equal(receiver.received.length, 0, 'the end of the delay alone sends nothing');
    assert.equal(
      (await json('PATCH', `/v1/notifications/${request['id']}`, { status: 'resolved' })).status,
      200,
    );
    assert.equal((await byRoute()).get(routeId)!['state'], 'cancelled');

    await clock.set(broker, morning + 1000);
    await settled(2);
    assert.deepEqual(
      receiver.received.map((each) => (each.body['idempotencyKey'] as string).split('.')[1]),
      [atOnce.body!['id'], atOnce.body!['id']],
      'only the route without a delay sends, once the window ends',
    );
    assert.deepEqual(received(), [
      'notification.created asked at night',
      'notification.resolved asked at night',
    ]);
  });

  it('inside quiet hours, the clear of a notification sent before them goes at once: the phone does not show it open all night', async () => {
    const day = new Date();
    const todayAt = (hours: number, minutes = 0) =>
      Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
    assert.equal((await json('POST', `/v1/routes/${routeId}/disable`)).status, 200);
    const atOnce = await json('POST', '/v1/routes', { providerId, minimumPriority: 'low' });
    assert.equal((await json('POST', `/v1/routes/${atOnce.body!['id'] as string}/enable`)).status, 200);
    const quietHours = { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' };
    assert.equal((await json('PATCH', '/v1/settings', { quietHours })).status, 200);
    await clock.set(broker, todayAt(21, 50));
    const request = await create({ title: 'asked before the night', type: 'input_required' });
    await settled(1);

    // Quiet hours hold back what would wake someone, never the news that a request is over.
    await clock.set(broker, todayAt(23));
    assert.equal(
      (await json('PATCH', `/v1/notifications/${request['id']}`, { status: 'resolved' })).status,
      200,
    );
    await settled(2);
    assert.deepEqual(received(), [
      'notification.created asked before the night',
      'notification.resolved asked before the night',
    ]);
  });

  it('refuses a delay that is not whole seconds from 0 to a day, and changes nothing', async () => {
    for (const delaySeconds of [-1, 86_401, 1.5, '300', null]) {
      const refused = await json('PATCH', `/v1/routes/${routeId}`, { delaySeconds, name: 'renamed' });
      assert.deepEqual(
        [refused.status, refused.body],
        [
          400,
          { error: 'delaySeconds must be a whole number of seconds from 0 (send at once) to 86400 (a day)' },
        ],
      );
    }
    const route = (await json('GET', `/v1/routes/${routeId}`)).body!;
    assert.deepEqual([route['delaySeconds'], route['name']], [DELAY_S, route['name']]);
    assert.notEqual(route['name'], 'renamed');
    const zero = await json('PATCH', `/v1/routes/${routeId}`, { delaySeconds: 0 });
    assert.equal(zero.body!['delaySeconds'], 0);
    const day = await json('PATCH', `/v1/routes/${routeId}`, { delaySeconds: 86_400 });
    assert.equal(day.body!['delaySeconds'], 86_400);
  });
});
