import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { NotificationDto } from '../../src/client/api-types.js';
import { fixtures, runHook } from '../hooks/support.js';
import { createTempHome, freePort, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOBODY, settle } from '../support/foreign-server.js';
import { runNotify } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

async function agentToken(broker: BrokerProcess, name: string): Promise<string> {
  const response = await broker.request('POST', '/v1/tokens', { name });
  return ((await response.json()) as { token: string }).token;
}

/**
 * A container's view: its own HOME without config.json, the socket mounted, a token of its own, and
 * a port that nothing listens on, so whatever works went through the socket.
 */
async function containerEnv(socket: string, token: string): Promise<NodeJS.ProcessEnv> {
  const home = mkdtempSync(join(tmpdir(), 'notify-container-'));
  return {
    PATH: process.env['PATH'],
    HOME: home,
    NOTIFY_SOCKET: socket,
    NOTIFY_TOKEN: token,
    NOTIFY_PORT: String(await freePort()),
  };
}

describe("notifyd's Unix socket", () => {
  it('listens on $XDG_RUNTIME_DIR/notify/notify.sock, folder 0700 and socket 0600, and says so', async () => {
    const home = createTempHome();
    const runtime = join(home.home, 'run');
    mkdirSync(runtime, { mode: 0o755 });
    const broker = await startBroker({ home, env: { XDG_RUNTIME_DIR: runtime } });
    try {
      const socket = join(runtime, 'notify', 'notify.sock');
      assert.equal(statSync(join(runtime, 'notify')).mode & 0o777, 0o700);
      const info = statSync(socket);
      assert.ok(info.isSocket());
      assert.equal(info.mode & 0o777, 0o600);
      assert.equal(info.uid, process.getuid!());
      const health = await runNotify(['health'], { env: { ...home.env, NOTIFY_SOCKET: socket } });
      assert.equal(health.code, 0, health.stderr);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('without XDG_RUNTIME_DIR, listens under the state folder', async () => {
    const broker = await startBroker();
    try {
      const socket = join(broker.home.home, '.local', 'state', 'notify', 'notify.sock');
      assert.equal(statSync(socket).mode & 0o777, 0o600);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('serves a container-style client that has only the socket and an agent token', async () => {
    const broker = await startBroker();
    const socket = join(broker.home.home, '.local', 'state', 'notify', 'notify.sock');
    const env = await containerEnv(socket, await agentToken(broker, 'devcontainer'));
    try {
      const sent = await runNotify(['send', 'Tests failed', '--agent', 'claude-code'], { env });
      assert.equal(sent.code, 0, sent.stderr);
      const created = JSON.parse(sent.stdout) as NotificationDto;
      assert.equal(created.raisedBy, 'devcontainer');
      const got = await runNotify(['get', created.id], { env });
      assert.equal(got.code, 0, got.stderr);

      // The hook bundle as the agent in the container runs it.
      const payload = {
        ...fixtures('claude')['Notification.permission_prompt']!,
        session_id: 'box-1',
        cwd: '/',
      };
      const hook = await runHook(['claude'], JSON.stringify(payload), env);
      assert.deepEqual({ code: hook.code, stderr: hook.stderr }, { code: 0, stderr: '' });
      const listed = (await (
        await broker.request('GET', '/v1/notifications?key=claude-code%3Abox-1')
      ).json()) as NotificationDto[];
      assert.equal(listed.length, 1);
      assert.equal(listed[0]!.raisedBy, 'devcontainer');

      // notifyctl over the socket: the agent token may not read settings, and says so.
      const settings = await runNotifyctl(['settings', 'show'], { env });
      assert.equal(settings.code, 2);
      assert.match(settings.stderr, /this token may only raise and follow its own notifications/);
    } finally {
      rmSync(env['HOME']!, { recursive: true, force: true });
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it("refuses another user's socket, and one others may write to, sending nothing", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'notify-foreign-socket-'));
    const socket = join(folder, 'notify.sock');
    let received = '';
    const server = createServer((connection) =>
      connection.on('data', (chunk: Buffer) => (received += chunk.toString())),
    );
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    const env = await containerEnv(socket, 'nfa_secretthatmustnotleakanywhere0000000000000');
    try {
      chownSync(socket, NOBODY, NOBODY);
      const asNobody = await runNotify(['send', 'hello'], { env });
      assert.equal(asNobody.code, 1);
      assert.match(
        asNobody.stderr,
        /The socket .*notify\.sock is refused: it belongs to another user \(uid 65534\)/,
      );
      const ctl = await runNotifyctl(['count'], { env });
      assert.equal(ctl.code, 1);
      assert.match(ctl.stderr, /belongs to another user \(uid 65534\)/);
      const payload = { ...fixtures('claude')['Notification.permission_prompt']!, session_id: 's', cwd: '/' };
      const hook = await runHook(['claude'], JSON.stringify(payload), env);
      assert.deepEqual(
        { code: hook.code, stdout: hook.stdout, stderr: hook.stderr },
        { code: 0, stdout: '', stderr: '' },
      );

      chownSync(socket, process.getuid!(), process.getgid!());
      chmodSync(socket, 0o666);
      const writable = await runNotify(['send', 'hello'], { env });
      assert.equal(writable.code, 1);
      assert.match(writable.stderr, /other users may write to it \(mode 0666\)/);
      await settle();
      assert.equal(received, '', 'nothing, the token least of all, reached the socket');
    } finally {
      server.close();
      rmSync(env['HOME']!, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('notifyctl remote container', () => {
  it('prints the socket mount, the token file and the hooks a dev container needs, never a token', async () => {
    const broker = await startBroker();
    try {
      const result = await runNotifyctl(['remote', 'container', '--name', 'shop-dc'], {
        env: broker.home.env,
      });
      assert.equal(result.code, 0, result.stderr);
      const folder = join(broker.home.home, '.local', 'state', 'notify');
      assert.ok(result.stdout.includes(`source=${folder},target=/run/notify,type=bind`), result.stdout);
      assert.ok(result.stdout.includes('"NOTIFY_SOCKET": "/run/notify/notify.sock"'));
      assert.ok(
        result.stdout.includes(
          'notifyctl tokens create shop-dc | tail -n 1 > ~/.config/notify/shop-dc.token',
        ),
      );
      assert.ok(result.stdout.includes('node /opt/notify/notify-hook.cjs claude --answer-wait=590'));
      assert.equal(/nfa_[A-Za-z0-9_-]{43}/.test(result.stdout), false);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });
});
