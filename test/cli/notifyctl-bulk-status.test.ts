import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { beforeEach, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { NOTIFYCTL, runNotifyctl } from '../support/notifyctl-cli.js';

interface Row {
  id: string;
  agent: string;
  project?: string;
  type: string;
  status: string;
}

describe('notifyctl resolve|dismiss --all: every active notification that matches, with a count', () => {
  const broker = useBroker();
  const ctl = (...args: string[]) => runNotifyctl(args, { env: broker.home.env });

  async function create(count: number, fields: Record<string, string>): Promise<void> {
    for (let index = 0; index < count; index++) {
      const response = await broker.request('POST', '/v1/notifications', {
        title: `T${index}`,
        message: 'm',
        ...fields,
      });
      assert.equal(response.status, 201);
    }
  }
  async function all(): Promise<Row[]> {
    return (await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as Row[];
  }
  const statusOf = async (agent: string) =>
    [...new Set((await all()).filter((row) => row.agent === agent).map((row) => row.status))].sort();

  beforeEach(async () => {
    for (const row of await all())
      if (row.status === 'active')
        await broker.request('PATCH', `/v1/notifications/${row.id}`, { status: 'resolved' });
  });

  it('resolves only the matching ones (agent, project, type) and says how many', async () => {
    await create(3, { agent: 'claude', project: 'api', type: 'error' });
    await create(2, { agent: 'claude', project: 'web', type: 'error' });
    await create(2, { agent: 'codex', project: 'api', type: 'error' });
    const result = await ctl('resolve', '--all', '--agent', 'claude', '--project', 'api', '--type', 'Error');
    assert.deepEqual(result, {
      code: 0,
      stdout: 'Resolved 3 notifications (agent claude, project api, type error).\n',
      stderr: '',
    });
    const active = (await all()).filter((row) => row.status === 'active');
    assert.equal(active.length, 4);
    assert.ok(active.every((row) => row.agent === 'codex' || row.project === 'web'));
  });

  it('dismisses every active one with no filter, and says when none matches', async () => {
    await create(2, { agent: 'gemini' });
    assert.deepEqual(await ctl('dismiss', '--all'), {
      code: 0,
      stdout: 'Dismissed 2 notifications.\n',
      stderr: '',
    });
    assert.deepEqual(await statusOf('gemini'), ['dismissed']);
    assert.deepEqual(await ctl('dismiss', '--all', '--agent', 'gemini'), {
      code: 0,
      stdout: 'No active notification (agent gemini); nothing to dismiss.\n',
      stderr: '',
    });
  });

  it('more than 10 without a terminal: refuses, changes nothing, exit 1; --yes does it', async () => {
    await create(11, { agent: 'ci' });
    const refused = await ctl('resolve', '--all', '--agent', 'ci');
    assert.deepEqual(refused, {
      code: 1,
      stdout: '',
      stderr:
        'Resolve 11 active notifications (agent ci)? Not without --yes: there is no terminal to ask on, and more than 10 would change. Nothing changed.\n',
    });
    assert.deepEqual(await statusOf('ci'), ['active']);
    assert.deepEqual(await ctl('resolve', '--all', '--agent', 'ci', '--yes'), {
      code: 0,
      stdout: 'Resolved 11 notifications (agent ci).\n',
      stderr: '',
    });
    assert.deepEqual(await statusOf('ci'), ['resolved']);
  });

  for (const [answer, expected] of [
    ['n', 'active'],
    ['y', 'dismissed'],
  ] as const) {
    it(`more than 10 on a terminal: asks, and '${answer}' leaves them ${expected}`, async () => {
      const agent = `tty-${answer}`;
      await create(12, { agent });
      // script(1) gives notifyctl a real terminal; the answer is typed into it.
      const command = `${process.execPath} ${NOTIFYCTL} dismiss --all --agent ${agent}`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: broker.home.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      let answered = false;
      child.stdin.on('error', () => {});
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (answered || !output.includes('[y/N]')) return;
        answered = true;
        child.stdin.write(`${answer}\n`);
      });
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      assert.match(output, new RegExp(`Dismiss 12 active notifications \\(agent ${agent}\\)\\? \\[y/N\\]`));
      assert.equal(code, answer === 'y' ? 0 : 1, output);
      if (answer === 'y') assert.match(output, /Dismissed 12 notifications \(agent tty-y\)\./);
      else assert.match(output, /Nothing changed\./);
      assert.deepEqual(await statusOf(agent), [expected]);
    });
  }

  it('without --all: the usage and the notify command for one id; notify resolve --all points here', async () => {
    assert.deepEqual(await ctl('resolve'), {
      code: 1,
      stdout: '',
      stderr:
        "Usage: notifyctl resolve --all [--agent <name>] [--project <name>] [--type <type>] [--yes]\nOne notification by id: 'notify resolve <id>'.\n",
    });
    const notify = await runNotify(['resolve', '--all'], { env: broker.home.env });
    assert.deepEqual(notify, {
      code: 1,
      stdout: '',
      stderr:
        "resolve requires an <id>. Usage: notify resolve <id>.\nHint: notify resolve takes one id; 'notifyctl resolve --all [--agent A] [--project P] [--type T]' does it for every active notification that matches.\n",
    });
  });
});
