import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl, spawnNotifyctl } from '../support/notifyctl-cli.js';
import { within } from '../support/wait-for.js';

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
  { id: 'allow_always', label: 'Always allow' },
];

async function create(broker: BrokerProcess, body: Record<string, unknown> = {}) {
  const response = await broker.request('POST', '/v1/notifications', {
    title: 'Run npm publish?',
    message: 'npm publish',
    actions: ACTIONS,
    ...body,
  });
  assert.equal(response.status, 201);
  return (await response.json()) as { id: string };
}

type Outcome = 'resolved' | 'dismissed' | 'allow' | 'deny' | 'allow_always';

/** notifyctl wait: each outcome, with and without --success, its line on stdout and its exit code. */
const WAIT_TABLE: [outcome: Outcome, success: string | undefined, line: string, code: number][] = [
  ['resolved', undefined, 'resolved', 0],
  ['resolved', 'allow', 'resolved', 0],
  ['dismissed', undefined, 'dismissed', 4],
  ['dismissed', 'allow', 'dismissed', 4],
  ['allow', undefined, 'answered allow', 10],
  ['deny', undefined, 'answered deny', 11],
  ['allow_always', undefined, 'answered allow_always', 12],
  ['allow', 'allow', 'answered allow', 0],
  ['deny', 'allow', 'answered deny', 11],
  ['allow_always', 'allow_always', 'answered allow_always', 0],
];

describe('notifyctl answer, pending and wait with answers', () => {
  const broker = useBroker();
  const env = () => broker.home.env;

  const bring = async (id: string, outcome: Outcome) => {
    const response =
      outcome === 'resolved'
        ? await broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' })
        : outcome === 'dismissed'
          ? await broker.request('POST', `/v1/notifications/${id}/dismiss`)
          : await broker.request('POST', `/v1/notifications/${id}/answer`, { action: outcome });
    assert.equal(response.status, 200);
  };

  for (const [outcome, success, line, code] of WAIT_TABLE) {
    it(`wait ${success ? `--success ${success} ` : ''}exits ${code} when ${outcome}`, async () => {
      const { id } = await create(broker);
      const args = ['wait', id, ...(success ? ['--success', success] : [])];
      const wait = spawnNotifyctl(args, { env: env() });
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(wait.child.exitCode, null, 'still waiting while active');
      await bring(id, outcome);
      assert.equal(await within(wait.exited, 'notifyctl wait to end'), code);
      assert.equal(wait.stdout, `${id} ${line}\n`);
    });
  }

  it('wait --success refuses an action the notification does not offer, and times out with 124', async () => {
    const { id } = await create(broker);
    const refused = await runNotifyctl(['wait', id, '--success', 'approve'], { env: env() });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `--success approve: notification ${id} offers allow, deny, allow_always\n`);
    const late = await runNotifyctl(['wait', id, '--success', 'allow', '--timeout', '0.5'], { env: env() });
    assert.equal(late.code, 124);
    assert.equal(late.stdout, `${id} still active after 0.5 seconds\n`);
  });

  it('pending lists what waits for an answer with its actions; answer answers as cli', async () => {
    await broker.request('POST', '/v1/notifications', { title: 'no choices', message: 'm' });
    const { id } = await create(broker, { title: 'Deploy\nnow?', agent: 'codex', key: 'deploy-7' });
    const pending = await runNotifyctl(['pending'], { env: env() });
    assert.equal(pending.code, 0);
    assert.match(
      pending.stdout,
      new RegExp(
        `^${id} revision 1 codex: Deploy now\\? \\[allow=Allow, deny=Deny, allow_always=Always allow\\]\n    npm publish$`,
        'm',
      ),
    );
    assert.match(pending.stdout, /\nAnswer with: notifyctl answer <id> <action> --revision <revision>\n$/);
    assert.doesNotMatch(pending.stdout, /no choices/);

    const answered = await runNotifyctl(['answer', '--key', 'deploy-7', 'deny', '--revision', '1'], {
      env: env(),
    });
    assert.deepEqual(
      { code: answered.code, stdout: answered.stdout },
      { code: 0, stdout: `${id} answered deny\n` },
    );
    const stored = (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as {
      status: string;
      answer: { action: string; surface: string };
    };
    assert.equal(stored.status, 'resolved');
    assert.deepEqual(
      { action: stored.answer.action, surface: stored.answer.surface },
      { action: 'deny', surface: 'cli' },
    );
    assert.doesNotMatch((await runNotifyctl(['pending'], { env: env() })).stdout, new RegExp(id));
  });

  it('answer reports refusals with the broker message and exit codes', async () => {
    const { id } = await create(broker, { key: 'asked-once' });
    assert.equal((await runNotifyctl(['answer', id, 'allow', '--revision', '1'], { env: env() })).code, 0);
    const table: [string[], number, string][] = [
      [
        ['answer', '--key', 'asked-once', 'deny', '--revision', '1'],
        1,
        'Error 409 Conflict: notification already answered: allow (from cli)\n',
      ],
      [
        ['answer', id, 'deny', '--revision', '1'],
        1,
        'Error 409 Conflict: notification already answered: allow (from cli)\n',
      ],
      [
        ['answer', 'no-such-id', 'allow', '--revision', '1'],
        3,
        'Error 404 Not Found: notification not found\n',
      ],
      [
        ['answer', '--key', 'never-used', 'allow', '--revision', '1'],
        3,
        'no active notification has key "never-used"\n',
      ],
      [
        ['answer', id],
        1,
        'answer needs a notification (<id> or --key <key>) and an action. Usage: notifyctl answer <id> <action> --revision <n> | notifyctl answer --key <key> <action> --revision <n> [--json].\n',
      ],
      [
        ['answer', id, 'allow'],
        1,
        'answer needs --revision <n>: the revision notifyctl pending showed with the request, so the answer approves exactly what you read. Run notifyctl pending, read the request, then answer it with its revision.\n',
      ],
      [
        ['answer', id, 'allow', '--revision', 'latest'],
        1,
        '--revision must be a whole number from 1, as notifyctl pending shows it; got "latest"\n',
      ],
    ];
    for (const [args, code, stderr] of table) {
      const result = await runNotifyctl(args, { env: env() });
      assert.deepEqual({ code: result.code, stderr: result.stderr }, { code, stderr }, args.join(' '));
    }
    const fresh = await create(broker);
    const unknown = await runNotifyctl(['answer', fresh.id, 'maybe', '--revision', '1'], { env: env() });
    assert.equal(unknown.code, 1);
    assert.equal(
      unknown.stderr,
      `Error 400 Bad Request: unknown action "maybe"; this notification's actions are allow, deny, allow_always\n`,
    );
  });

  it('answer --key answers the active request of the key, never a newer resolved one with the same key', async () => {
    const first = await create(broker, { title: 'Release 9?', key: 'release-9' });
    await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'resolved' });
    const second = await create(broker, { title: 'Release 9, again?', key: 'release-9' });
    assert.notEqual(second.id, first.id, 'a key whose notification ended starts a new one');
    await broker.request('PATCH', `/v1/notifications/${second.id}`, { status: 'resolved' });
    const reopened = await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'active' });
    assert.equal(reopened.status, 200, await reopened.text());
    const { revision } = (await (await broker.request('GET', `/v1/notifications/${first.id}`)).json()) as {
      revision: number;
    };
    const answered = await runNotifyctl(
      ['answer', '--key', 'release-9', 'allow', '--revision', String(revision)],
      { env: env() },
    );
    assert.deepEqual(
      { code: answered.code, stdout: answered.stdout, stderr: answered.stderr },
      { code: 0, stdout: `${first.id} answered allow\n`, stderr: '' },
    );
    const newer = (await (await broker.request('GET', `/v1/notifications/${second.id}`)).json()) as {
      answer?: unknown;
    };
    assert.equal(newer.answer, undefined, 'the resolved one stays unanswered');
  });

  it('pending says when nothing waits', async () => {
    const list = await runNotifyctl(['pending', '--json'], { env: env() });
    for (const notification of JSON.parse(list.stdout) as { id: string }[])
      await broker.request('POST', `/v1/notifications/${notification.id}/dismiss`);
    const result = await runNotifyctl(['pending'], { env: env() });
    assert.deepEqual(
      { code: result.code, stdout: result.stdout },
      { code: 0, stdout: 'nothing waits for an answer\n' },
    );
  });
});
