/**
 * `notifyctl snooze` run in this process (the compiled command module, which mutation testing reaches)
 * against the real broker built in this process, its clock frozen so that "until when" is exact: what
 * the person at the terminal reads, the exit code, and which notification is quiet until when.
 * test/attention/notifyctl-attention.test.ts runs the notifyctl process against notifyd.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSnooze } from '../../src/cli/notifyctl/snooze.js';
import { useInProcessBroker, type InProcessBroker } from '../support/in-process-broker.js';
import { RecordedIo } from '../support/relay-in-process.js';
import { describeListedCommand } from './listed-command.js';

const MINUTE = 60_000;
const USAGE_ERROR =
  'snooze needs a notification (<id> or --key <key>) and a duration. Usage: notifyctl snooze <id> <duration> | notifyctl snooze --key <key> <duration> [--json].\n';
const BAD_DURATION = 'the duration must be minutes or hours from 1m to 24h, such as 15m, 90m or 2h.\n';

interface Stored {
  id: string;
  status: string;
  snoozedUntil?: string;
}

async function create(broker: InProcessBroker, body: Record<string, unknown> = {}): Promise<Stored> {
  const response = await broker.request('POST', '/v1/notifications', {
    title: 'Tests finished',
    message: '412 passed',
    ...body,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as Stored;
}

async function stored(broker: InProcessBroker, id: string): Promise<Stored> {
  return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Stored;
}

/** The fewest minutes from the broker's now to a local time of the day that `wanted` accepts. */
function minutesUntil(broker: InProcessBroker, wanted: (at: Date) => boolean): number {
  for (let minutes = 1; minutes <= 1440; minutes++) {
    if (wanted(new Date(broker.now() + minutes * MINUTE))) return minutes;
  }
  throw new Error('no such time of day within 24 hours');
}

describe('notifyctl snooze (in process)', () => {
  const broker = useInProcessBroker({ frozenClock: true });
  const snooze = async (...args: string[]) => {
    const io = new RecordedIo(broker.home.env);
    const code = await runSnooze(args, io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  const untilIn = (minutes: number) => broker.now() + minutes * MINUTE;
  const snoozedUntil = async (id: string) => Date.parse((await stored(broker, id)).snoozedUntil ?? '');

  it("says until when in the terminal's local time, hours and minutes of two digits each", async () => {
    const { id } = await create(broker);
    const cases: [(at: Date) => boolean, string][] = [
      [(at) => at.getHours() === 5 && at.getMinutes() === 7, '05:07'],
      [(at) => at.getHours() === 23 && at.getMinutes() === 45, '23:45'],
    ];
    for (const [wanted, shown] of cases) {
      const minutes = minutesUntil(broker, wanted);
      assert.deepEqual(await snooze(id, `${minutes}m`), {
        code: 0,
        stdout: `${id} snoozed until ${shown}\n`,
        stderr: '',
      });
      assert.equal(await snoozedUntil(id), untilIn(minutes));
    }
  });

  it('reads minutes or hours from 1m to 24h, and refuses any other duration', async () => {
    const { id } = await create(broker);
    const taken: [string, number][] = [
      ['15m', 15],
      ['15', 15],
      ['2h', 120],
      ['1h30m', 90],
      ['1H', 60],
      ['90M', 90],
      [' 45m ', 45],
      ['1m', 1],
      ['24h', 1440],
      ['1440', 1440],
      ['23h60m', 1440],
    ];
    for (const [text, minutes] of taken) {
      const result = await snooze(id, text);
      assert.deepEqual([result.code, result.stderr], [0, ''], text);
      assert.equal(await snoozedUntil(id), untilIn(minutes), text);
    }
    const before = (await stored(broker, id)).snoozedUntil;
    for (const text of [
      '0',
      '0m',
      '1441',
      '24h1m',
      '25h',
      '',
      'h',
      'm',
      'soon',
      '15s',
      'x5m',
      '1.5h',
      'm15',
      '15mm',
      '2hh',
    ]) {
      assert.deepEqual(await snooze(id, text), { code: 1, stdout: '', stderr: BAD_DURATION }, `"${text}"`);
    }
    assert.equal((await stored(broker, id)).snoozedUntil, before, 'no refusal moved the snooze');
  });

  it('prints the snoozed notification with --json, wherever the switch stands', async () => {
    const { id } = await create(broker);
    const result = await snooze('--json', id, '2h');
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Stored;
    assert.equal(result.stdout, `${JSON.stringify(printed, null, 2)}\n`, 'indented, as every --json');
    assert.deepEqual(
      { id: printed.id, status: printed.status, snoozedUntil: Date.parse(printed.snoozedUntil ?? '') },
      { id, status: 'active', snoozedUntil: untilIn(120) },
    );
  });

  it('--key snoozes the active notification of the key, never a newer ended one with the same key', async () => {
    const resolve = (id: string) =>
      broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    const older = await create(broker, { title: 'Release gate', key: 'release-gate' });
    await resolve(older.id);
    assert.deepEqual(await snooze('--key', 'release-gate', '15m'), {
      code: 3,
      stdout: '',
      stderr: 'no active notification has key "release-gate"\n',
    });
    const newer = await create(broker, { title: 'Release gate', key: 'release-gate' });
    assert.notEqual(newer.id, older.id, 'a key whose notification ended starts a new one');
    await resolve(newer.id);
    const reopened = await broker.request('PATCH', `/v1/notifications/${older.id}`, { status: 'active' });
    assert.equal(reopened.status, 200, await reopened.text());
    await create(broker, { title: 'Another gate', key: 'other-gate' });

    const minutes = minutesUntil(broker, (at) => at.getHours() === 14 && at.getMinutes() === 32);
    assert.deepEqual(await snooze('--key', 'release-gate', `${minutes}`), {
      code: 0,
      stdout: `${older.id} snoozed until 14:32\n`,
      stderr: '',
    });
    assert.equal(await snoozedUntil(older.id), untilIn(minutes));
    assert.equal((await stored(broker, newer.id)).snoozedUntil, undefined, 'the ended one stays as it was');
  });

  it('refuses a missing notification or duration, extra words, an unknown id and a closed notification', async () => {
    const { id } = await create(broker, { key: 'closed-gate' });
    await broker.request('POST', `/v1/notifications/${id}/dismiss`);
    const table: [string[], number, string][] = [
      [[id], 1, USAGE_ERROR],
      [[], 1, USAGE_ERROR],
      [[id, '15m', 'now'], 1, USAGE_ERROR],
      [['--key', 'closed-gate', id, '15m'], 1, USAGE_ERROR],
      [['--key', 'closed-gate'], 1, USAGE_ERROR],
      [['--key', 'closed-gate', '15m'], 3, 'no active notification has key "closed-gate"\n'],
      [['15m', '--key'], 1, '--key requires a value.\n'],
      [
        [id, '15m', '--jsn'],
        1,
        "unknown option '--jsn' for snooze. Run 'notifyctl --help'.\nHint: did you mean '--json'?\n",
      ],
      [['no-such-id', '15m'], 3, 'Error 404 Not Found: notification not found\n'],
      [
        [id, '15m'],
        1,
        'Error 409 Conflict: notification is dismissed; only an active notification can be snoozed\n',
      ],
    ];
    for (const [args, code, stderr] of table) {
      assert.deepEqual(await snooze(...args), { code, stdout: '', stderr }, args.join(' '));
    }
    assert.equal((await stored(broker, id)).snoozedUntil, undefined);
  });
});

describeListedCommand({
  name: 'snooze',
  summary: "close a notification's toast and keep it quiet for a while, e.g. 15m (id or --key)",
  help: [
    'Usage: notifyctl snooze <id> <duration> | notifyctl snooze --key <key> <duration> [--json].',
    '',
    "Closes the notification's toast and keeps it quiet for the duration (15m, 2h, 1h30m; at most 24h),",
    'then alerts again if it is still active.',
    'It takes --port <port> and --token <token> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json).',
  ],
  refused: { args: ['only-an-id', '--port', '1', '--token', 'unused'], because: 'a usage error' },
});
