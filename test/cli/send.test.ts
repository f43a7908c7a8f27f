import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { NotificationDto } from '../../src/domain/notification.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';

describe('notify send against a real broker', () => {
  let broker: BrokerProcess;
  let workDir: string;
  before(async () => {
    broker = await startBroker();
    workDir = realpathSync(mkdtempSync(join(tmpdir(), 'notify-cwd-')));
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  });

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runNotify(args, { env: { ...broker.home.env, ...env }, cwd: workDir });
  const sent = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = await run(args, env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    const notification = JSON.parse(result.stdout) as NotificationDto;
    assert.equal(result.stdout, `${JSON.stringify(notification, null, 2)}\n`, 'indented JSON');
    return notification;
  };

  it('creates from flags, trims text, and prints the stored notification', async () => {
    const created = await sent([
      'send',
      '--title',
      '  Build finished  ',
      '--message',
      ' All tests passed ',
      '--project',
      'api',
      '--agent-instance',
      'run-7',
      '--pid',
      '4242',
    ]);
    assert.equal(created.title, 'Build finished');
    assert.equal(created.message, 'All tests passed');
    assert.equal(created.project, 'api');
    assert.equal(created.agentInstance, 'run-7');
    assert.equal(created.pid, 4242);
    assert.equal(created.status, 'active');
    const stored = (await (
      await broker.request('GET', `/v1/notifications/${created.id}`)
    ).json()) as NotificationDto;
    assert.deepEqual(stored, created);
  });

  it('defaults agent to cli, cwd to the current directory, type info and priority normal', async () => {
    const created = await sent(['send', '--title', 'T', '--msg', 'M']);
    assert.equal(created.agent, 'cli');
    assert.equal(created.cwd, workDir);
    assert.equal(created.type, 'info');
    assert.equal(created.priority, 'normal');
    assert.equal(created.pid, undefined);
  });

  it('takes the agent from NOTIFY_AGENT, and --agent over it', async () => {
    assert.equal((await sent(['Title'], { NOTIFY_AGENT: 'nightly-ci' })).agent, 'nightly-ci');
    assert.equal((await sent(['Title', '--agent', 'codex'], { NOTIFY_AGENT: 'nightly-ci' })).agent, 'codex');
  });

  it('uses --cwd when given', async () => {
    assert.equal((await sent(['Title', '--cwd', '/srv/app'])).cwd, '/srv/app');
  });

  for (const pid of ['abc', '-3', '1.5', '']) {
    it(`leaves pid out when --pid is '${pid}'`, async () => {
      assert.equal((await sent(['Title', '--pid', pid])).pid, undefined);
    });
  }

  it('treats a single positional as both title and message', async () => {
    const created = await sent(['Deploy done']);
    assert.equal(created.title, 'Deploy done');
    assert.equal(created.message, 'Deploy done');
  });

  it('reads title and message from two positionals, with and without the send word', async () => {
    for (const args of [
      ['Title here', 'Message here'],
      ['send', 'Title here', 'Message here'],
    ]) {
      const created = await sent(args);
      assert.equal(created.title, 'Title here');
      assert.equal(created.message, 'Message here');
    }
  });

  it('lets a positional fill the message when only --title is a flag', async () => {
    const created = await sent(['--title', 'T', 'the message']);
    assert.deepEqual([created.title, created.message], ['T', 'the message']);
  });

  it('accepts a title that starts with a dash after --', async () => {
    assert.equal((await sent(['--', '-1 test failed'])).title, '-1 test failed');
  });

  it('updates the active notification in place when --key matches', async () => {
    const first = await sent(['Tests failing', '3 failures', '--key', 'api:tests']);
    const second = await sent(['Tests failing', '1 failure', '--key', 'api:tests']);
    assert.equal(second.id, first.id);
    assert.equal(second.message, '1 failure');
  });

  const types: [string, string][] = [
    ['Input-Required', 'input_required'],
    ['inputrequired', 'input_required'],
    ['PermissionRequired', 'permission_required'],
    ['permission-required', 'permission_required'],
    ['  WARNING ', 'warning'],
    ['my-custom_type', 'my_custom_type'],
  ];
  for (const [input, expected] of types) {
    it(`normalizes --type '${input}' to ${expected}`, async () => {
      assert.equal((await sent(['T', '--type', input])).type, expected);
    });
  }

  const priorities: [string, string][] = [
    ['HIGH', 'high'],
    ['crit-ical', 'critical'],
    ['Lo_w', 'low'],
  ];
  for (const [input, expected] of priorities) {
    it(`normalizes --priority '${input}' to ${expected}`, async () => {
      assert.equal((await sent(['T', '--priority', input])).priority, expected);
    });
  }

  const invalid: [string, string[], string][] = [
    [
      'an invalid type',
      ['T', '--type', '9lives'],
      '--type must be a valid identifier containing letters, numbers, underscores, or hyphens (maximum 64 characters).',
    ],
    ['a type over 64 characters', ['T', '--type', `a${'b'.repeat(64)}`], '--type must be a valid identifier'],
    [
      'an invalid priority',
      ['T', '--priority', 'urgent'],
      '--priority must be low, normal, high, or critical',
    ],
    [
      'an unknown option',
      ['T', '--colour', 'red'],
      "unknown option '--colour' for send. Run 'notify help send'.",
    ],
    ['an unknown option after send', ['send', '-x'], "unknown option '-x' for send. Run 'notify help send'."],
    ['an empty title', ['send', '--title', '  ', '--message', 'M'], '--title must not be empty.'],
    ['a title over 200 characters', ['x'.repeat(201), 'M'], '--title must be at most 200 characters.'],
    ['a message over 4000 characters', ['T', 'm'.repeat(4001)], '--message must be at most 4000 characters.'],
    [
      'an agent over 100 characters',
      ['T', '--agent', 'a'.repeat(101)],
      '--agent must be at most 100 characters.',
    ],
    ['a key over 100 characters', ['T', '--key', 'k'.repeat(101)], '--key must be at most 100 characters.'],
    [
      'a project over 200 characters',
      ['T', '--project', 'p'.repeat(201)],
      '--project must be at most 200 characters.',
    ],
    [
      'a cwd over 1024 characters',
      ['T', '--cwd', `/${'c'.repeat(1024)}`],
      '--cwd must be at most 1024 characters.',
    ],
    ['no title', ['send', '--message', 'M'], 'send requires a title'],
    ['no message', ['send', '--title', 'T'], 'send requires a message'],
    ['a third positional', ['send', 'a', 'b', 'c'], "unexpected argument 'c' for send"],
    ['a flag without its value', ['T', '--key'], '--key requires a value.'],
    ['an invalid --port', ['T', '--port', 'http'], '--port must be an integer from 1 to 65535.'],
  ];
  for (const [what, args, message] of invalid) {
    it(`exits 1 with a message on stderr for ${what}`, async () => {
      const before = (await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as unknown[];
      const result = await run(args);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(message), result.stderr);
      assert.ok(result.stderr.endsWith('\n') && result.stderr.split('\n').length === 2, 'one line');
      const afterwards = (await (
        await broker.request('GET', '/v1/notifications?limit=500')
      ).json()) as unknown[];
      assert.equal(afterwards.length, before.length, 'nothing was sent');
    });
  }

  it('counts characters, not UTF-16 units, so 200 emoji make a valid title', async () => {
    assert.equal([...(await sent(['😀'.repeat(200), 'M'])).title].length, 200);
  });

  it('exits 2 with the HTTP error line when the broker refuses the token', async () => {
    const result = await run(['T', '--token', 'wrong']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^Error 401 Unauthorized: unauthorized\nHint: the token given with --token/);
  });
});
