/**
 * `notifyctl wait` run in this process (the compiled command module, which mutation testing reaches)
 * against the real broker built in this process: which change ends the wait, what the person or the
 * script reads then, and the exit code that tells the outcomes apart (docs/notifyctl.md "wait").
 * test/cli/notifyctl-count-wait.test.ts and test/answers/notifyctl-answers.test.ts run the notifyctl
 * process against notifyd.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBroker } from '../../src/broker/broker.js';
import { runWait } from '../../src/cli/notifyctl/wait.js';
import { resolvePaths } from '../../src/config/paths.js';
import { authorizedRequest } from '../support/broker-process.js';
import {
  startInProcessBroker,
  useInProcessBroker,
  type InProcessBroker,
} from '../support/in-process-broker.js';
import { realDelay, RecordedIo } from '../support/relay-in-process.js';
import { within } from '../support/wait-for.js';
import { describeListedCommand } from './listed-command.js';

const ACTIONS = [
  { id: 'deploy', label: 'Deploy' },
  { id: 'later', label: 'Later' },
  { id: 'cancel', label: 'Cancel' },
];
const USAGE_ERROR =
  'wait needs one <id> or --key <key>. Usage: notifyctl wait <id> | --key <key> [--timeout <seconds>] [--success <action>].\n';
/** Long enough for the wait to connect and read, in process, before the test changes anything. */
const SETTLING_MS = 300;

type Request = InProcessBroker['request'];

interface Stored {
  id: string;
  status: string;
}

async function create(request: Request, body: Record<string, unknown> = {}): Promise<Stored> {
  const response = await request('POST', '/v1/notifications', {
    title: 'Deploy to prod?',
    message: './deploy v2',
    ...body,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as Stored;
}

type Outcome = 'resolved' | 'dismissed' | 'deploy' | 'later' | 'cancel';

async function bring(request: Request, id: string, outcome: Outcome): Promise<void> {
  const response =
    outcome === 'resolved'
      ? await request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' })
      : outcome === 'dismissed'
        ? await request('POST', `/v1/notifications/${id}/dismiss`)
        : await request('POST', `/v1/notifications/${id}/answer`, { action: outcome });
  assert.equal(response.status, 200, await response.text());
}

interface Waiting {
  done: Promise<{ code: number; stdout: string; stderr: string }>;
  /** Whether the wait has returned yet. */
  ended(): boolean;
}

function startWait(env: NodeJS.ProcessEnv, args: string[]): Waiting {
  const io = new RecordedIo(env);
  let ended = false;
  const done = runWait(args, io).then((code) => {
    ended = true;
    return { code, stdout: io.stdout, stderr: io.stderr };
  });
  return { done, ended: () => ended };
}

/** Starts the wait and checks it is still waiting once it had time to connect and read. */
async function waiting(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Waiting> {
  const wait = startWait(env, args);
  await realDelay(SETTLING_MS);
  assert.equal(wait.ended(), false, `still waiting: ${args.join(' ')}`);
  return wait;
}

describe('notifyctl wait (in process)', () => {
  const broker = useInProcessBroker();
  const env = () => broker.home.env;
  const wait = (...args: string[]) => within(startWait(env(), args).done, `notifyctl wait ${args.join(' ')}`);

  const OUTCOMES: [Outcome, string | undefined, string, number][] = [
    ['resolved', undefined, 'resolved', 0],
    ['resolved', 'deploy', 'resolved', 0],
    ['dismissed', undefined, 'dismissed', 4],
    ['dismissed', 'deploy', 'dismissed', 4],
    ['deploy', undefined, 'answered deploy', 10],
    ['later', undefined, 'answered later', 11],
    ['cancel', undefined, 'answered cancel', 12],
    ['deploy', 'deploy', 'answered deploy', 0],
    ['later', 'later', 'answered later', 0],
    ['cancel', 'later', 'answered cancel', 12],
    ['deploy', 'cancel', 'answered deploy', 10],
  ];

  for (const [outcome, success, line, code] of OUTCOMES) {
    const flags = success === undefined ? [] : ['--success', success];
    it(`${flags.join(' ') || 'without --success'}: ${line} while it waits exits ${code}`, async () => {
      const { id } = await create(broker.request, { actions: ACTIONS });
      const running = await waiting(env(), id, ...flags);
      await bring(broker.request, id, outcome);
      assert.deepEqual(await within(running.done, 'the wait to end'), {
        code,
        stdout: `${id} ${line}\n`,
        stderr: '',
      });
    });

    it(`${flags.join(' ') || 'without --success'}: ${line} before it starts exits ${code} at once`, async () => {
      const { id } = await create(broker.request, { actions: ACTIONS });
      await bring(broker.request, id, outcome);
      assert.deepEqual(await wait(id, ...flags), { code, stdout: `${id} ${line}\n`, stderr: '' });
    });
  }

  it('goes on waiting through other notifications ending and its own changing while active', async () => {
    const { id } = await create(broker.request, { key: 'deploy-gate', actions: ACTIONS });
    const other = await create(broker.request, { title: 'Other', actions: ACTIONS });
    const running = await waiting(env(), id);
    await bring(broker.request, other.id, 'deploy');
    const changed = await create(broker.request, {
      key: 'deploy-gate',
      message: './deploy v3',
      actions: ACTIONS,
    });
    assert.equal(changed.id, id, 'the key updates the waited-for notification');
    await realDelay(SETTLING_MS);
    assert.equal(running.ended(), false, 'still waiting');
    await bring(broker.request, id, 'later');
    assert.deepEqual(await within(running.done, 'the wait to end'), {
      code: 11,
      stdout: `${id} answered later\n`,
      stderr: '',
    });
  });

  it('prints the ended notification with --json', async () => {
    const { id } = await create(broker.request, { actions: ACTIONS });
    const running = await waiting(env(), '--json', id);
    await bring(broker.request, id, 'cancel');
    const result = await within(running.done, 'the wait to end');
    assert.deepEqual([result.code, result.stderr], [12, '']);
    const printed = JSON.parse(result.stdout) as Stored & { answer: { action: string } };
    assert.equal(result.stdout, `${JSON.stringify(printed, null, 2)}\n`, 'indented, as every --json');
    assert.deepEqual(
      { id: printed.id, status: printed.status, action: printed.answer.action },
      { id, status: 'resolved', action: 'cancel' },
    );
    const dismissed = await create(broker.request);
    await bring(broker.request, dismissed.id, 'dismissed');
    const atOnce = await wait(dismissed.id, '--json');
    assert.deepEqual([atOnce.code, (JSON.parse(atOnce.stdout) as Stored).status], [4, 'dismissed']);
  });

  it('--key waits for the active notification of the key, not a newer ended one with the same key', async () => {
    const older = await create(broker.request, { key: 'gate-7' });
    await bring(broker.request, older.id, 'resolved');
    const newer = await create(broker.request, { key: 'gate-7' });
    assert.notEqual(newer.id, older.id, 'a key whose notification ended starts a new one');
    await bring(broker.request, newer.id, 'dismissed');
    const reopened = await broker.request('PATCH', `/v1/notifications/${older.id}`, { status: 'active' });
    assert.equal(reopened.status, 200, await reopened.text());

    const running = await waiting(env(), '--key', 'gate-7');
    await bring(broker.request, older.id, 'resolved');
    assert.deepEqual(await within(running.done, 'the wait to end'), {
      code: 0,
      stdout: `${older.id} resolved\n`,
      stderr: '',
    });
  });

  it("--key of a key with no active notification answers at once with the key's latest", async () => {
    const older = await create(broker.request, { key: 'gate-8' });
    await bring(broker.request, older.id, 'resolved');
    const newer = await create(broker.request, { key: 'gate-8' });
    await bring(broker.request, newer.id, 'dismissed');
    assert.deepEqual(await wait('--key', 'gate-8'), {
      code: 4,
      stdout: `${newer.id} dismissed\n`,
      stderr: '',
    });
    assert.deepEqual(await wait('--key', 'never-used'), {
      code: 3,
      stdout: '',
      stderr: 'no notification has key "never-used"\n',
    });
  });

  it('exits 124 at --timeout, naming the notification still active, also one found by key', async () => {
    const { id } = await create(broker.request, { key: 'slow-gate', actions: ACTIONS });
    const started = performance.now();
    assert.deepEqual(await wait(id, '--timeout', '0.5'), {
      code: 124,
      stdout: `${id} still active after 0.5 seconds\n`,
      stderr: '',
    });
    assert.ok(performance.now() - started >= 450, 'it waited the half second');
    assert.deepEqual(await wait('--key', 'slow-gate', '--timeout', ' 0.45 ', '--success', 'deploy'), {
      code: 124,
      stdout: `${id} still active after 0.45 seconds\n`,
      stderr: '',
    });
  });

  it('ends with the notification when it ends before --timeout', async () => {
    const { id } = await create(broker.request);
    const running = await waiting(env(), id, '--timeout', '30');
    await bring(broker.request, id, 'resolved');
    assert.deepEqual(await within(running.done, 'the wait to end', 5_000), {
      code: 0,
      stdout: `${id} resolved\n`,
      stderr: '',
    });
  });

  it('refuses a --success the notification does not offer, before waiting', async () => {
    const offers = await create(broker.request, { actions: ACTIONS });
    const plain = await create(broker.request);
    assert.deepEqual(await wait(offers.id, '--success', 'approve'), {
      code: 1,
      stdout: '',
      stderr: `--success approve: notification ${offers.id} offers deploy, later, cancel\n`,
    });
    assert.deepEqual(await wait(plain.id, '--success', 'deploy'), {
      code: 1,
      stdout: '',
      stderr: `--success deploy: notification ${plain.id} offers no actions\n`,
    });
  });

  it('refuses a usage mistake (exit 1), an unknown id (exit 3) and a refused token (exit 2)', async () => {
    const { id } = await create(broker.request);
    const table: [string[], number, string][] = [
      [[], 1, USAGE_ERROR],
      [[id, '--key', 'gate'], 1, USAGE_ERROR],
      [[id, 'another'], 1, USAGE_ERROR],
      [['--key', 'gate', 'another'], 1, USAGE_ERROR],
      [['no-such-id'], 3, 'notification not found\n'],
      [['--key'], 1, '--key requires a value.\n'],
      [[id, '--timeout'], 1, '--timeout requires a value.\n'],
      [[id, '--success'], 1, '--success requires a value.\n'],
      [
        [id, '--timout', '5'],
        1,
        "unknown option '--timout' for wait. Run 'notifyctl --help'.\nHint: did you mean '--timeout'?\n",
      ],
      [
        [id, '--token', 'wrong-token-wrong-token'],
        2,
        `Error 401 Unauthorized: unauthorized\nHint: the token given with --token is not the broker's. 'notify token' prints the one in ${resolvePaths(env()).configFile}; leave --token out to use it.\n`,
      ],
    ];
    for (const text of ['soon', '0', '0.0', '-1', '.5', '1.', '1e2', '']) {
      table.push([[id, '--timeout', text], 1, '--timeout must be a number of seconds above 0.\n']);
    }
    for (const [args, code, stderr] of table) {
      assert.deepEqual(await wait(...args), { code, stdout: '', stderr }, args.join(' '));
    }
  });

  it('leaves no connection or timer behind when it fails after connecting, so notifyctl exits at once', async () => {
    const open = () => {
      const kinds = process.getActiveResourcesInfo();
      return ['Timeout', 'PipeWrap', 'TCPSocketWrap'].map((kind) => kinds.filter((k) => k === kind).length);
    };
    const before = open();
    assert.deepEqual(await wait('no-such-id', '--timeout', '600'), {
      code: 3,
      stdout: '',
      stderr: 'notification not found\n',
    });
    await realDelay(SETTLING_MS);
    const after = open();
    assert.ok(
      after.every((count, index) => count <= before[index]!),
      `timers, sockets and connections: ${before.join(', ')} before, ${after.join(', ')} after`,
    );
  });

  it('exits 1 when the broker cannot be reached at the start', async () => {
    const result = await wait('some-id', '--port', '1');
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^Could not reach Notify at http:\/\/127\.0\.0\.1:1: .+\nIs notifyd running\?\n/,
    );
  });
});

describe('notifyctl wait while the broker restarts (in process)', () => {
  it('reconnects until the broker is back, and reads the notification again', async () => {
    const first = await startInProcessBroker();
    const { home } = first;
    const paths = resolvePaths(home.env);
    let second: Awaited<ReturnType<typeof startBroker>> | undefined;
    try {
      const { id } = await create(first.request, { actions: ACTIONS });
      const running = await waiting(home.env, id);
      await first.stop();
      // Down for longer than the wait's pause between connections: it finds no broker once, and goes on.
      await realDelay(1500);
      second = await startBroker({ paths, clock: Date.now, browserEnv: { PATH: home.env['PATH'] } });
      assert.equal(second.port, first.port, 'the port of config.json');
      await bring(authorizedRequest(first.baseUrl, first.token), id, 'later');
      assert.deepEqual(await within(running.done, 'the wait to end after the restart'), {
        code: 11,
        stdout: `${id} answered later\n`,
        stderr: '',
      });
    } finally {
      await second?.stop();
      home.cleanup();
    }
  });
});

describeListedCommand({
  name: 'wait',
  summary: 'wait until a notification (by id, or --key) is answered, resolved or dismissed',
  help: [
    'Usage: notifyctl wait <id> | --key <key> [--timeout <seconds>] [--success <action>] [--json]',
    '',
    'Waits until the notification is answered, resolved or dismissed. Exit 0: resolved, or answered with',
    '--success (or its first action); 10, 11, 12: answered with its first, second, third action;',
    '4: dismissed; 124: still active at --timeout.',
    'It takes --port <port> and --token <token> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json).',
  ],
  refused: { args: ['--port', '1', '--token', 'unused'], because: 'a usage error' },
});

/** A notification the hop answers 500 for, as a broker whose database failed would. */
const FAILING_ID = 'f0000000-0000-7000-8000-000000000000';

/**
 * An HTTP hop to the broker that answers everything but the event stream, which it holds unanswered:
 * a wait's deadline then passes before the wait could follow anything.
 */
async function startStreamHoldingHop(brokerPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const held = new Set<ServerResponse>();
  const server = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith('/v1/stream')) return void held.add(outgoing);
    if (incoming.url === `/v1/notifications/${FAILING_ID}`) {
      outgoing.writeHead(500, { 'content-type': 'application/json' });
      return void outgoing.end(JSON.stringify({ error: 'the database is locked' }));
    }
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: brokerPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${brokerPort}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        held.forEach((outgoing) => outgoing.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('notifyctl wait whose --timeout passes before it follows anything (in process)', () => {
  const broker = useInProcessBroker();
  let hop: Awaited<ReturnType<typeof startStreamHoldingHop>>;
  before(async () => {
    hop = await startStreamHoldingHop(broker.port);
  });
  after(() => hop?.close());
  const wait = (...args: string[]) =>
    within(
      startWait(broker.home.env, [...args, '--port', String(hop.port)]).done,
      `notifyctl wait ${args.join(' ')}`,
    );

  it('says what the broker holds at the deadline: not found, the outcome, still active, or its error', async () => {
    const answered = await create(broker.request, { actions: ACTIONS });
    await bring(broker.request, answered.id, 'later');
    const dismissed = await create(broker.request, { key: 'gone-gate' });
    await bring(broker.request, dismissed.id, 'dismissed');
    const active = await create(broker.request, { key: 'open-gate', actions: ACTIONS });
    const table: [string[], { code: number; stdout: string; stderr: string }][] = [
      [['no-such-id'], { code: 3, stdout: '', stderr: 'notification not found\n' }],
      [
        [FAILING_ID],
        { code: 1, stdout: '', stderr: 'Error 500 Internal Server Error: the database is locked\n' },
      ],
      [['--key', 'never-used'], { code: 3, stdout: '', stderr: 'no notification has key "never-used"\n' }],
      [[answered.id], { code: 11, stdout: `${answered.id} answered later\n`, stderr: '' }],
      [['--key', 'gone-gate'], { code: 4, stdout: `${dismissed.id} dismissed\n`, stderr: '' }],
      [
        ['--key', 'open-gate'],
        { code: 124, stdout: `${active.id} still active after 0.2 seconds\n`, stderr: '' },
      ],
      [
        [active.id, '--success', 'approve'],
        {
          code: 1,
          stdout: '',
          stderr: `--success approve: notification ${active.id} offers deploy, later, cancel\n`,
        },
      ],
    ];
    for (const [args, expected] of table) {
      assert.deepEqual(await wait(...args, '--timeout', '0.2'), expected, args.join(' '));
    }
  });
});

describe('notifyctl wait whose --timeout passes while the broker is down (in process)', () => {
  it('says it cannot reach the broker, not that the notification is still active', async () => {
    const broker = await startInProcessBroker();
    try {
      const { id } = await create(broker.request);
      const running = await waiting(broker.home.env, id, '--timeout', '1');
      await broker.stop();
      const result = await within(running.done, 'the wait to end at its deadline');
      assert.deepEqual([result.code, result.stdout], [1, '']);
      assert.match(
        result.stderr,
        /^Could not reach Notify at http:\/\/127\.0\.0\.1:\d+: .+\nIs notifyd running\?\n/,
      );
    } finally {
      broker.home.cleanup();
    }
  });
});
