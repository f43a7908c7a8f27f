/**
 * `notifyctl answer` run in this process (the compiled command module, which mutation testing reaches)
 * against the real broker built in this process: what the person at the terminal reads, the exit code,
 * and which request the answer reached. test/answers/notifyctl-answers.test.ts runs the notifyctl
 * process against notifyd.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAnswer } from '../../src/cli/notifyctl/answer.js';
import { useInProcessBroker, type InProcessBroker } from '../support/in-process-broker.js';
import { RecordedIo } from '../support/relay-in-process.js';
import { describeListedCommand } from './listed-command.js';

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

const USAGE_ERROR =
  'answer needs a notification (<id> or --key <key>) and an action. Usage: notifyctl answer <id> <action> --revision <n> | notifyctl answer --key <key> <action> --revision <n> [--json].\n';
const NO_REVISION =
  'answer needs --revision <n>: the revision notifyctl pending showed with the request, so the answer approves exactly what you read. Run notifyctl pending, read the request, then answer it with its revision.\n';

interface Stored {
  id: string;
  status: string;
  revision: number;
  answer?: { action: string; surface: string };
}

async function ask(broker: InProcessBroker, body: Record<string, unknown> = {}): Promise<Stored> {
  const response = await broker.request('POST', '/v1/notifications', {
    title: 'Run npm publish?',
    message: 'npm publish',
    actions: ACTIONS,
    ...body,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as Stored;
}

async function stored(broker: InProcessBroker, id: string): Promise<Stored> {
  return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Stored;
}

describe('notifyctl answer (in process)', () => {
  const broker = useInProcessBroker();
  const answer = async (...args: string[]) => {
    const io = new RecordedIo(broker.home.env);
    const code = await runAnswer(args, io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };

  it('answers a request by id as the person at the terminal, and says so', async () => {
    const { id } = await ask(broker);
    assert.deepEqual(await answer(id, 'deny', '--revision', '1'), {
      code: 0,
      stdout: `${id} answered deny\n`,
      stderr: '',
    });
    const after = await stored(broker, id);
    assert.equal(after.status, 'resolved');
    assert.deepEqual(
      { action: after.answer?.action, surface: after.answer?.surface },
      { action: 'deny', surface: 'cli' },
    );
  });

  it('prints the answered notification with --json, wherever the switch stands', async () => {
    const { id } = await ask(broker);
    const result = await answer(id, '--json', 'allow', '--revision', '1');
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Stored;
    assert.equal(result.stdout, `${JSON.stringify(printed, null, 2)}\n`, 'indented, as every --json');
    assert.deepEqual(
      { id: printed.id, status: printed.status, action: printed.answer?.action },
      { id, status: 'resolved', action: 'allow' },
    );
  });

  it('--key answers the active request of the key, never a newer resolved one with the same key', async () => {
    const first = await ask(broker, { title: 'Release 9?', key: 'release-9' });
    await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'resolved' });
    const second = await ask(broker, { title: 'Release 9, again?', key: 'release-9' });
    assert.notEqual(second.id, first.id, 'a key whose notification ended starts a new one');
    await broker.request('PATCH', `/v1/notifications/${second.id}`, { status: 'resolved' });
    const reopened = await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'active' });
    assert.equal(reopened.status, 200, await reopened.text());
    const { revision } = await stored(broker, first.id);

    assert.deepEqual(await answer('--key', 'release-9', 'allow', '--revision', String(revision)), {
      code: 0,
      stdout: `${first.id} answered allow\n`,
      stderr: '',
    });
    assert.equal((await stored(broker, first.id)).answer?.action, 'allow');
    assert.equal((await stored(broker, second.id)).answer, undefined, 'the resolved one stays unanswered');
  });

  it("--key on a request answered already gives the broker's refusal; on none, says there is none (exit 3)", async () => {
    const { id } = await ask(broker, { key: 'asked-once' });
    assert.equal((await answer(id, 'allow', '--revision', '1')).code, 0);
    await ask(broker, { title: 'A newer request of another key', key: 'other-key' });
    assert.deepEqual(await answer('--key', 'asked-once', 'deny', '--revision', '1'), {
      code: 1,
      stdout: '',
      stderr: 'Error 409 Conflict: notification already answered: allow (from cli)\n',
    });

    const ended = await ask(broker, { key: 'ended-unanswered' });
    await broker.request('PATCH', `/v1/notifications/${ended.id}`, { status: 'resolved' });
    for (const key of ['ended-unanswered', 'never-used']) {
      assert.deepEqual(await answer('--key', key, 'allow', '--revision', '1'), {
        code: 3,
        stdout: '',
        stderr: `no active notification has key "${key}"\n`,
      });
    }
    assert.equal((await stored(broker, ended.id)).answer, undefined);
  });

  it('refuses a missing notification or action, extra words, and a revision that is not a whole number from 1', async () => {
    const { id } = await ask(broker);
    const table: [string[], number, string][] = [
      [['no-such-id', 'allow', '--revision', '1'], 3, 'Error 404 Not Found: notification not found\n'],
      [[id], 1, USAGE_ERROR],
      [[id, 'allow', 'now', '--revision', '1'], 1, USAGE_ERROR],
      [['--key', 'k', id, 'allow', '--revision', '1'], 1, USAGE_ERROR],
      [['--key', 'k', '--revision', '1'], 1, USAGE_ERROR],
      [[id, 'allow'], 1, NO_REVISION],
      [['allow', '--revision', '1', '--key'], 1, '--key requires a value.\n'],
      [
        [id, 'allow', '--revison', '1'],
        1,
        "unknown option '--revison' for answer. Run 'notifyctl --help'.\nHint: did you mean '--revision'?\n",
      ],
    ];
    for (const text of ['latest', '0', '00', '-1', '1.5', '1e2', 'v2', '2x', ' 2', '1234567890123456', '']) {
      table.push([
        [id, 'allow', '--revision', text],
        1,
        `--revision must be a whole number from 1, as notifyctl pending shows it; got "${text}"\n`,
      ]);
    }
    for (const [args, code, stderr] of table) {
      assert.deepEqual(await answer(...args), { code, stdout: '', stderr }, args.join(' '));
    }
    assert.equal((await stored(broker, id)).status, 'active', 'no refusal answered anything');
  });

  it('sends the revision as typed: one the request does not have any more is refused by the broker', async () => {
    const { id } = await ask(broker, { key: 'changing' });
    const changed = await ask(broker, { key: 'changing', message: 'npm publish --tag next' });
    assert.equal(changed.revision, 2);
    assert.deepEqual(await answer(id, 'allow', '--revision', '12'), {
      code: 1,
      stdout: '',
      stderr:
        'Error 409 Conflict: this request changed after it was shown (revision 12 answered, now revision 2); look at it again and answer what it asks now\n',
    });
    assert.deepEqual(await answer(id, 'allow', '--revision', '1'), {
      code: 1,
      stdout: '',
      stderr:
        'Error 409 Conflict: this request changed after it was shown (revision 1 answered, now revision 2); look at it again and answer what it asks now\n',
    });
    assert.equal(
      (await answer(id, 'allow', '--revision', '002')).code,
      0,
      'leading zeros are the same number',
    );
    assert.equal((await stored(broker, id)).answer?.action, 'allow');
  });
});

describeListedCommand({
  name: 'answer',
  summary: 'answer a request with one of its actions (id or --key; --revision from pending)',
  help: [
    'Usage: notifyctl answer <id> <action> --revision <n> [--json]',
    '       notifyctl answer --key <key> <action> --revision <n> [--json]',
    '',
    "Answers a request for the person at this terminal; the revision is the one 'notifyctl pending'",
    'showed, so the answer approves exactly what you read (a request changed since is refused).',
    'It takes --port <port> and --token <token> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json).',
  ],
  refused: { args: ['only-an-id', '--port', '1', '--token', 'unused'], because: 'a usage error' },
});
