/**
 * `notifyctl pending` run in this process (the compiled command module, which mutation testing reaches)
 * against the real broker built in this process: what the person at the terminal reads before answering
 * (each request with its revision, its actions and its whole message), and what --json gives a script.
 * test/answers/notifyctl-answers.test.ts and test/trust/visible-controls-api.test.ts run the notifyctl
 * process against notifyd.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runPending } from '../../src/cli/notifyctl/pending.js';
import { TERMINAL_ONLY } from '../../src/domain/display-controls.js';
import { useInProcessBroker, type InProcessBroker } from '../support/in-process-broker.js';
import { RecordedIo } from '../support/relay-in-process.js';
import { describeListedCommand } from './listed-command.js';

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];
const HINT = 'Answer with: notifyctl answer <id> <action> --revision <revision>\n';

interface Stored {
  id: string;
  status: string;
  revision: number;
  actions?: { id: string; label: string }[];
}

async function create(broker: InProcessBroker, body: Record<string, unknown> = {}): Promise<Stored> {
  const response = await broker.request('POST', '/v1/notifications', {
    title: 'Run npm publish?',
    message: 'npm publish',
    agent: 'claude',
    actions: ACTIONS,
    ...body,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as Stored;
}

describe('notifyctl pending (in process)', () => {
  const broker = useInProcessBroker();
  const pending = async (...args: string[]) => {
    const io = new RecordedIo(broker.home.env);
    const code = await runPending(args, io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  /** Ends every request still waiting, so that each test starts from none. */
  const endAll = async () => {
    const list = await pending('--json');
    for (const { id } of JSON.parse(list.stdout) as Stored[]) {
      await broker.request('POST', `/v1/notifications/${id}/dismiss`);
    }
  };

  it('says nothing waits while only notifications without actions and ended requests are there', async () => {
    await create(broker, { title: 'Tests finished', actions: undefined });
    const answered = await create(broker);
    await broker.request('POST', `/v1/notifications/${answered.id}/answer`, { action: 'allow' });
    const resolved = await create(broker);
    await broker.request('PATCH', `/v1/notifications/${resolved.id}`, { status: 'resolved' });
    const dismissed = await create(broker);
    await broker.request('POST', `/v1/notifications/${dismissed.id}/dismiss`);
    assert.deepEqual(await pending(), { code: 0, stdout: 'nothing waits for an answer\n', stderr: '' });
    assert.deepEqual(await pending('--json'), { code: 0, stdout: '[]\n', stderr: '' });
  });

  it('lists each request newest first with its revision, agent, title and actions, then its whole message', async () => {
    await endAll();
    const older = await create(broker, { key: 'publish', message: 'npm publish' });
    const changed = await create(broker, {
      key: 'publish',
      title: 'Run\tnpm\t\tpublish\n--tag next?',
      message: 'cd web\r\nnpm publish\t--tag next\rgit push\n\ngit\t\ttag v2',
    });
    assert.deepEqual([changed.id, changed.revision], [older.id, 2], 'the key updated the request');
    const newer = await create(broker, {
      title: 'Deploy?',
      message: './deploy',
      agent: 'codex',
      actions: [
        { id: 'deploy', label: 'Deploy\nnow' },
        { id: 'later', label: 'Later' },
        { id: 'cancel', label: 'Cancel' },
      ],
    });
    assert.deepEqual(await pending(), {
      code: 0,
      stdout: [
        `${newer.id} revision 1 codex: Deploy? [deploy=Deploy now, later=Later, cancel=Cancel]\n`,
        '    ./deploy\n',
        `${older.id} revision 2 claude: Run npm publish --tag next? [allow=Allow, deny=Deny]\n`,
        '    cd web\n',
        '    npm publish --tag next\n',
        '    git push\n',
        '    \n',
        '    git tag v2\n',
        HINT,
      ].join(''),
      stderr: '',
    });
  });

  it('shows characters that change how text is displayed, and names no actions for such a request', async () => {
    await endAll();
    const plain = await create(broker, { title: 'Plain?' });
    const hidden = await create(broker, { title: 'Run \u202eit?', message: 'ls\u200b -la' });
    const expected = [
      `${hidden.id} revision 1 claude: Run ⟨U+202E⟩it? [${TERMINAL_ONLY}]\n`,
      '    ls⟨U+200B⟩ -la\n',
      `${plain.id} revision 1 claude: Plain? [allow=Allow, deny=Deny]\n`,
      '    npm publish\n',
    ];
    assert.deepEqual(await pending(), { code: 0, stdout: [...expected, HINT].join(''), stderr: '' });

    await broker.request('POST', `/v1/notifications/${plain.id}/dismiss`);
    const label = await create(broker, {
      title: 'Labels?',
      actions: [{ id: 'allow', label: 'Allow\u2066' }, ...ACTIONS.slice(1)],
    });
    assert.deepEqual(
      await pending(),
      {
        code: 0,
        stdout: [
          `${label.id} revision 1 claude: Labels? [${TERMINAL_ONLY}]\n`,
          '    npm publish\n',
          ...expected.slice(0, 2),
        ].join(''),
        stderr: '',
      },
      'no hint to answer what only the terminal answers',
    );
  });

  it('--json prints the waiting requests, newest first, with their revisions and actions', async () => {
    await endAll();
    await create(broker, { title: 'No actions', actions: undefined });
    const first = await create(broker, { key: 'json-1' });
    await create(broker, { key: 'json-1', message: 'npm publish --dry-run' });
    const second = await create(broker, { title: 'Second?' });
    const result = await pending('--json');
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Stored[];
    assert.equal(result.stdout, `${JSON.stringify(printed, null, 2)}\n`, 'indented, as every --json');
    assert.deepEqual(
      printed.map(({ id, status, revision, actions }) => ({ id, status, revision, actions })),
      [
        { id: second.id, status: 'active', revision: 1, actions: ACTIONS },
        { id: first.id, status: 'active', revision: 2, actions: ACTIONS },
      ],
    );
  });

  it('lists every waiting request, more than a page of notify list', async () => {
    await endAll();
    const created: string[] = [];
    for (let index = 0; index < 101; index++) {
      created.push((await create(broker, { title: `Request ${index}?` })).id);
    }
    const result = await pending('--json');
    assert.deepEqual(
      (JSON.parse(result.stdout) as Stored[]).map(({ id }) => id),
      created.reverse(),
    );
  });

  it('refuses an option it does not take, and a value given to --json', async () => {
    const table: [string, string][] = [
      ['--al', "unknown option '--al' for pending. Run 'notifyctl --help'.\n"],
      ['--json=no', '--json does not take a value.\n'],
    ];
    for (const [arg, stderr] of table) {
      assert.deepEqual(await pending(arg), { code: 1, stdout: '', stderr }, arg);
    }
  });
});

describeListedCommand({
  name: 'pending',
  summary: 'list what waits for an answer, with its actions',
  help: [
    'Usage: notifyctl pending [--json]',
    '',
    'What waits for your answer, newest first: each request with its message, its revision and the',
    "actions 'notifyctl answer <id> <action> --revision <n>' takes.",
    'It takes --port <port> and --token <token> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json).',
  ],
  refused: { args: ['--port', '1', '--token', 'unused'], because: 'a broker it cannot reach' },
});
