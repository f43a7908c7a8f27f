import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl, spawnNotifyctl } from '../support/notifyctl-cli.js';

async function create(broker: BrokerProcess, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await broker.request('POST', '/v1/notifications', { message: 'm', ...body });
  assert.equal(response.status, 201);
  return (await response.json()) as { id: string };
}

describe('notifyctl watch', () => {
  const broker = useBroker();

  it('--json prints one compact JSON line per change as it happens', async () => {
    const watch = spawnNotifyctl(['watch', '--json'], { env: broker.home.env });
    try {
      await watch.until((cli) => cli.stderr.includes('following Notify at'));
      const first = await create(broker, { title: 'watched', type: 'input_required', agent: 'claude' });
      await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'resolved' });
      await watch.until((cli) => cli.stdout.includes('notification.resolved'));
      const lines = watch.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const mine = lines.filter((line) => line.notification.id === first.id);
      assert.deepEqual(
        mine.map((line) => [line.name, line.notification.status]),
        [
          ['notification.created', 'active'],
          ['notification.resolved', 'resolved'],
        ],
      );
      assert.match(mine[0].id, /^[0-9a-z]+-\d+$/);
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  });

  it('prints a readable line per change: time, what happened, and the notify list line', async () => {
    const watch = spawnNotifyctl(['watch'], { env: broker.home.env });
    try {
      await watch.until((cli) => cli.stderr.includes('following Notify at'));
      const created = await create(broker, {
        title: 'Need a\nreview',
        type: 'input_required',
        agent: 'codex',
      });
      await watch.until((cli) => cli.stdout.includes(created.id));
      assert.match(
        watch.stdout,
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d created   ${created.id} \\[input_required/normal\\] active Need a review \\(codex\\)$`,
          'm',
        ),
      );
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
    }
  });

  it('refuses a wrong token with the spec error and exit 2', async () => {
    const result = await runNotifyctl(['watch', '--token', 'wrong-token-wrong-token'], {
      env: broker.home.env,
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Error 401 Unauthorized: unauthorized$/m);
  });
});

describe('notifyctl watch across a broker restart', () => {
  it('says it lost the connection, reconnects on its own, and goes on printing', async () => {
    const broker = await startBroker();
    const watch = spawnNotifyctl(['watch', '--json'], { env: broker.home.env });
    let restarted: BrokerProcess | undefined;
    try {
      await watch.until((cli) => cli.stderr.includes('following Notify at'));
      await create(broker, { title: 'before' });
      await watch.until((cli) => cli.stdout.includes('"before"'));
      await broker.stop();
      await watch.until((cli) => cli.stderr.includes('lost the connection to Notify; reconnecting'));
      restarted = await startBroker({ home: broker.home, port: broker.port });
      await watch.until((cli) => cli.stderr.includes('connected to Notify again'));
      await create(restarted, { title: 'after' });
      await watch.until((cli) => cli.stdout.includes('"after"'));
      assert.equal(watch.child.exitCode, null, 'it is still running: it reconnected on its own');
      const printed = watch.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { name: string; notification?: { title: string } });
      // The restarted broker cannot replay from the old broker's last event id: it says so (reset).
      assert.deepEqual(
        printed.map((line) => [line.name, line.notification?.title]),
        [
          ['notification.created', 'before'],
          ['reset', undefined],
          ['notification.created', 'after'],
        ],
      );
      const said = watch.stderr.split('\n');
      const lost = said.findIndex((line) => line.includes('lost the connection to Notify; reconnecting'));
      const again = said.findIndex((line) => line.includes('connected to Notify again'));
      assert.ok(
        lost > 0 && again > lost,
        `stderr says, in order, that it lost and got back the connection:\n${watch.stderr}`,
      );
    } finally {
      watch.child.kill('SIGTERM');
      await watch.exited;
      await restarted?.stop();
      broker.home.cleanup();
    }
  });

  it('exits 1 with the spec lines when no broker is running at the start', async () => {
    const broker = await startBroker();
    await broker.stop();
    const result = await runNotifyctl(['watch'], { env: broker.home.env });
    broker.home.cleanup();
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^Could not reach Notify at http:\/\/127\.0\.0\.1:\d+: .+\nIs notifyd running\?$/m,
    );
  });
});
