import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NotificationDto } from '../../src/domain/notification.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';

describe('notify list against a real broker', () => {
  let broker: BrokerProcess;
  const created: NotificationDto[] = [];
  before(async () => {
    broker = await startBroker();
    const emptyList = await runNotify(['list'], { env: broker.home.env });
    assert.deepEqual(emptyList, { code: 0, stdout: '(no notifications)\n', stderr: '' });
    for (let index = 0; index < 25; index++) {
      const response = await broker.request('POST', '/v1/notifications', {
        title: `Note ${index}`,
        message: 'm',
        agent: index % 2 === 0 ? 'codex' : 'claude-code',
        project: index < 5 ? 'api' : 'web',
        type: index === 24 ? 'input_required' : 'info',
        priority: index === 24 ? 'high' : 'normal',
      });
      created.push((await response.json()) as NotificationDto);
    }
    await broker.request('PATCH', `/v1/notifications/${created[0]!.id}`, { status: 'resolved' });
    await broker.request('POST', `/v1/notifications/${created[1]!.id}/dismiss`);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  const list = async (...args: string[]) => {
    const result = await runNotify(['list', ...args], { env: broker.home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    return result.stdout;
  };
  const ids = async (...args: string[]) =>
    (JSON.parse(await list('--json', ...args)) as NotificationDto[]).map((n) => n.id);

  it('prints "(no notifications)" when nothing matches', async () => {
    assert.equal(await list('--project', 'nowhere'), '(no notifications)\n');
  });

  it('prints one line per notification: {id} [{type}/{priority}] {status} {title} ({agent}), newest first', async () => {
    const lines = (await list('--limit', '2')).split('\n');
    const newest = created[24]!;
    assert.equal(lines[0], `${newest.id} [input_required/high] active Note 24 (codex)`);
    assert.equal(lines[1], `${created[23]!.id} [info/normal] active Note 23 (claude-code)`);
    assert.equal(lines.length, 3, 'two lines and the final newline');
  });

  it('asks for 20 notifications by default', async () => {
    assert.equal((await list()).trimEnd().split('\n').length, 20);
  });

  it('passes --limit to the broker, which clamps it to 1-500', async () => {
    assert.equal((await ids('--limit', '3')).length, 3);
    assert.equal((await ids('--limit', '0')).length, 1);
    assert.equal((await ids('--limit', '1000')).length, 25);
  });

  it('prints an indented JSON array with --json', async () => {
    const stdout = await list('--json', '--limit', '2');
    const parsed = JSON.parse(stdout) as NotificationDto[];
    assert.equal(stdout, `${JSON.stringify(parsed, null, 2)}\n`);
    assert.deepEqual(parsed[0], created[24]);
  });

  it('prints an empty JSON array when nothing matches with --json', async () => {
    assert.equal(await list('--json', '--agent', 'nobody'), '[]\n');
  });

  for (const args of [
    ['--unresolved'],
    ['--unresolved', 'true'],
    ['--unresolved=yes'],
    ['--unresolved', '--limit', '500'],
  ]) {
    it(`shows only active notifications for ${args.join(' ')}`, async () => {
      const shown = await ids(...args, ...(args.includes('--limit') ? [] : ['--limit', '500']));
      assert.equal(shown.length, 23);
      assert.ok(!shown.includes(created[0]!.id) && !shown.includes(created[1]!.id));
    });
  }

  it('lets --unresolved true override --status', async () => {
    assert.equal((await ids('--unresolved', '--status', 'resolved', '--limit', '500')).length, 23);
  });

  it('applies --status when --unresolved is false', async () => {
    assert.deepEqual(await ids('--unresolved', 'false', '--status', 'resolved'), [created[0]!.id]);
  });

  for (const status of ['DISMISSED', 'dis-missed', 'dis_missed']) {
    it(`reads --status '${status}' as dismissed`, async () => {
      assert.deepEqual(await ids('--status', status), [created[1]!.id]);
    });
  }

  it('filters by --type (normalized), --project and --agent', async () => {
    assert.deepEqual(await ids('--type', 'Input-Required'), [created[24]!.id]);
    assert.equal((await ids('--project', ' api ')).length, 5);
    assert.equal((await ids('--agent', 'codex', '--limit', '500')).length, 13);
  });

  const invalid: [string, string[], string][] = [
    ['an unknown option', ['--colour'], "unknown option '--colour' for list.\n"],
    ['an unknown option with a value', ['--sort=asc'], "unknown option '--sort' for list.\n"],
    ['a non-boolean --unresolved', ['--unresolved', 'maybe'], '--unresolved must be true or false.\n'],
    ['an invalid --status', ['--status', 'open'], '--status must be active, dismissed, or resolved.\n'],
    [
      'an invalid --type',
      ['--type', '_x'],
      '--type must be a valid identifier containing letters, numbers, underscores, or hyphens (maximum 64 characters).\n',
    ],
    ['a non-integer --limit', ['--limit', 'ten'], '--limit must be an integer.\n'],
    ['a stray argument', ['extra'], "unexpected argument 'extra' for list. Run 'notify help list'.\n"],
  ];
  for (const [what, args, message] of invalid) {
    it(`exits 1 for ${what}`, async () => {
      const result = await runNotify(['list', ...args], { env: broker.home.env });
      assert.deepEqual(result, { code: 1, stdout: '', stderr: message });
    });
  }
});

describe('notify list with control characters in a title or agent', () => {
  let broker: BrokerProcess;
  let created: NotificationDto;
  before(async () => {
    broker = await startBroker();
    const response = await broker.request('POST', '/v1/notifications', {
      title: 'First line\r\nsecond\tline\u0007\u001b[2Jend',
      message: 'm',
      agent: 'bot\n\n(evil)\u0000x',
    });
    assert.equal(response.status, 201);
    created = (await response.json()) as NotificationDto;
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  it('keeps each entry on one line, each run of control characters becoming one space', async () => {
    const result = await runNotify(['list'], { env: broker.home.env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      `${created.id} [info/normal] active First line second line [2Jend (bot (evil) x)\n`,
    );
  });

  it('keeps the exact text with --json', async () => {
    const result = await runNotify(['list', '--json'], { env: broker.home.env });
    assert.equal(result.code, 0, result.stderr);
    const [listed] = JSON.parse(result.stdout) as NotificationDto[];
    assert.equal(listed!.title, created.title);
    assert.equal(listed!.agent, 'bot\n\n(evil)\u0000x');
  });
});
