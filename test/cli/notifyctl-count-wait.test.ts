import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl, spawnNotifyctl } from '../support/notifyctl-cli.js';
import { within } from '../support/wait-for.js';

async function create(broker: BrokerProcess, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await broker.request('POST', '/v1/notifications', { message: 'm', ...body });
  assert.equal(response.status, 201);
  return (await response.json()) as { id: string };
}

describe('notifyctl count', () => {
  const broker = useBroker();

  it('says nothing needs attention when nothing is active', async () => {
    const result = await runNotifyctl(['count'], { env: broker.home.env });
    assert.deepEqual([result.code, result.stdout, result.stderr], [0, 'nothing needs attention\n', '']);
  });

  it('counts the active notifications that need a person by type, most frequent first, in one line or as JSON', async () => {
    await create(broker, { title: 'a', type: 'input_required' });
    await create(broker, { title: 'b', type: 'input_required' });
    const gone = await create(broker, { title: 'c', type: 'blocked' });
    await create(broker, { title: 'd', type: 'error' });
    await create(broker, { title: 'news, not a request', type: 'completed' });
    await create(broker, { title: 'also news', type: 'info' });
    await broker.request('POST', `/v1/notifications/${gone.id}/dismiss`);
    const human = await runNotifyctl(['count'], { env: broker.home.env });
    assert.equal(human.stdout, '3 need attention: 2 input_required, 1 error\n');
    const json = await runNotifyctl(['count', '--json'], { env: broker.home.env });
    assert.deepEqual(JSON.parse(json.stdout), { waiting: 3, byType: { input_required: 2, error: 1 } });
    const health = (await (await broker.request('GET', '/v1/health')).json()) as { activeCount: number };
    assert.equal(health.activeCount, 5, "the spec's activeCount still counts every active notification");
  });

  it('follows a type that says it needs a person (needsPerson)', async () => {
    assert.equal((await broker.request('PUT', '/v1/types/completed', { needsPerson: true })).status, 201);
    const human = await runNotifyctl(['count'], { env: broker.home.env });
    assert.equal(human.stdout, '4 need attention: 2 input_required, 1 completed, 1 error\n');
  });
});

describe('notifyctl wait', () => {
  const broker = useBroker();

  it('returns 0 and prints the final status when the notification is resolved', async () => {
    const { id } = await create(broker, { title: 'wait for me' });
    const wait = spawnNotifyctl(['wait', id], { env: broker.home.env });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(wait.child.exitCode, null, 'still waiting while active');
    await broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    assert.equal(await within(wait.exited, 'notifyctl wait to end'), 0);
    assert.equal(wait.stdout, `${id} resolved\n`);
  });

  it('returns at once when the notification has already left active', async () => {
    const { id } = await create(broker, { title: 'done already' });
    await broker.request('POST', `/v1/notifications/${id}/dismiss`);
    const result = await runNotifyctl(['wait', id, '--json'], { env: broker.home.env, timeoutMs: 10_000 });
    assert.equal(result.code, 4, 'dismissed is never success');
    assert.equal(JSON.parse(result.stdout).status, 'dismissed');
  });

  it('--key follows the condition of that key: an ARC request.resolved ends the wait', async () => {
    await create(broker, { title: 'keyed', key: 'ci-build-42' });
    const wait = spawnNotifyctl(['wait', '--key', 'ci-build-42'], { env: broker.home.env });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const resolved = await broker.request('POST', '/v1/events', {
      arc_version: '0.1',
      event_id: 'wait-test-1',
      event_type: 'request.resolved',
      occurred_at: new Date().toISOString(),
      sender: { id: 'ci' },
      request: { key: 'ci-build-42' },
    });
    assert.equal(resolved.status, 200);
    assert.equal(await within(wait.exited, 'notifyctl wait to end'), 0);
    assert.match(wait.stdout, / resolved\n$/);
  });

  it('--key waits for the open notification of that key, not a newer one with the key that ended', async () => {
    const resolve = (id: string) =>
      broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    const older = await create(broker, { title: 'deploy gate', key: 'deploy-gate-7' });
    await resolve(older.id);
    const newer = await create(broker, { title: 'deploy gate', key: 'deploy-gate-7' });
    await resolve(newer.id);
    assert.equal(
      (await broker.request('PATCH', `/v1/notifications/${older.id}`, { status: 'active' })).status,
      200,
    );
    // A script waits for the gate to be decided: the reopened request is not decided yet.
    const result = await runNotifyctl(['wait', '--key', 'deploy-gate-7', '--timeout', '0.5'], {
      env: broker.home.env,
    });
    assert.deepEqual([result.code, result.stdout], [124, `${older.id} still active after 0.5 seconds\n`]);
  });

  it('exits 124 when still active at the --timeout, saying so', async () => {
    const { id } = await create(broker, { title: 'slow' });
    const result = await runNotifyctl(['wait', id, '--timeout', '0.5'], { env: broker.home.env });
    assert.equal(result.code, 124);
    assert.equal(result.stdout, `${id} still active after 0.5 seconds\n`);
  });

  it('exits 3 for an unknown id or key, 1 for a usage mistake, 2 for a wrong token', async () => {
    const table: [string[], number, RegExp][] = [
      [['wait', 'no-such-id'], 3, /^notification not found$/m],
      [['wait', '--key', 'never-used'], 3, /^no notification has key "never-used"$/m],
      [['wait'], 1, /^wait needs one <id> or --key <key>\./m],
      [['wait', 'a', '--key', 'b'], 1, /^wait needs one <id> or --key <key>\./m],
      [['wait', 'a', '--timeout', 'soon'], 1, /^--timeout must be a number of seconds above 0\.$/m],
      [['wait', 'a', '--token', 'wrong-token-wrong-token'], 2, /^Error 401 Unauthorized: unauthorized$/m],
    ];
    for (const [args, code, stderr] of table) {
      const result = await runNotifyctl(args, { env: broker.home.env });
      assert.equal(result.code, code, args.join(' '));
      assert.match(result.stderr, stderr, args.join(' '));
    }
  });
});

describe('notifyctl count and wait with no broker', () => {
  it('exit 1 with the spec lines', async () => {
    const broker = await startBroker();
    await broker.stop();
    for (const args of [['count'], ['wait', 'x']]) {
      const result = await runNotifyctl(args, { env: broker.home.env });
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        /^Could not reach Notify at http:\/\/127\.0\.0\.1:\d+: .+\nIs notifyd running\?$/m,
      );
    }
    broker.home.cleanup();
  });
});
