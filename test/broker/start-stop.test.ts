import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTempHome, freePort, NOTIFYD, writeConfig, type TempHome } from '../support/broker-process.js';

interface Started {
  child: ReturnType<typeof spawn>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts notifyd in `home` and resolves once its banner is complete, keeping what it printed. */
async function startNotifyd(home: TempHome, config: Record<string, unknown> = {}): Promise<Started> {
  writeConfig(home, { ...config, port: await freePort() });
  const child = spawn(process.execPath, [NOTIFYD], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // A broker that never finishes its banner is killed, so a failing test never leaves it running.
  const giveUp = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('Ctrl+C stops it.')) resolve();
    });
    void exited.then(() => reject(new Error(`notifyd exited before listening:\n${stdout}${stderr}`)));
  }).finally(() => clearTimeout(giveUp));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function logText(home: TempHome): string {
  return readdirSync(home.logDir)
    .map((name) => readFileSync(join(home.logDir, name), 'utf8'))
    .join('');
}

/** Each test is bounded: a stop that hangs (the bug) fails here instead of waiting for a timeout of 30 s. */
const BOUNDED = { timeout: 20_000 };

describe('notifyd start and stop', () => {
  it('names the config file, the logs folder and the database in its start banner', BOUNDED, async () => {
    const home = createTempHome();
    const notifyd = await startNotifyd(home);
    try {
      const lines = notifyd.stdout().split('\n');
      assert.match(lines[0]!, /^Notify listening on http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(lines.includes(`  config:   ${home.configFile}`), notifyd.stdout());
      assert.ok(lines.includes(`  logs:     ${home.logDir}`), notifyd.stdout());
      assert.ok(lines.includes(`  database: ${home.databaseFile}`), notifyd.stdout());
    } finally {
      notifyd.child.kill('SIGTERM');
      await notifyd.exited;
      home.cleanup();
    }
  });

  it('prints each config value it had to correct on stderr, not only in the log', BOUNDED, async () => {
    const home = createTempHome();
    const notifyd = await startNotifyd(home, { maxVisibleToasts: 50, rateLimitPerSecond: -3 });
    try {
      const expected = [
        'Warning: config.json: rateLimitPerSecond -3 is out of range (must be above 0); using 30',
        'Warning: config.json: maxVisibleToasts 50 is out of range (1-20); using 20',
      ];
      for (const line of expected) {
        assert.ok(notifyd.stderr().split('\n').includes(line), `missing "${line}" in:\n${notifyd.stderr()}`);
      }
    } finally {
      notifyd.child.kill('SIGTERM');
      await notifyd.exited;
      home.cleanup();
    }
  });

  it(
    'prints the config values it corrected also when the start then fails (the port is taken)',
    BOUNDED,
    async () => {
      const home = createTempHome();
      const holder = createServer().listen(0, '127.0.0.1');
      await once(holder, 'listening');
      try {
        writeConfig(home, { rateLimitPerSecond: -3, port: (holder.address() as AddressInfo).port });
        const child = spawn(process.execPath, [NOTIFYD], {
          env: home.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const [code] = (await once(child, 'exit')) as [number | null];
        assert.equal(code, 1);
        const lines = stderr.split('\n');
        assert.ok(
          lines.includes(
            'Warning: config.json: rateLimitPerSecond -3 is out of range (must be above 0); using 30',
          ),
          stderr,
        );
        assert.ok(
          lines.some((line) => line.startsWith('Notify cannot start: ')),
          stderr,
        );
      } finally {
        holder.close();
        home.cleanup();
      }
    },
  );

  for (const [name, signals] of [
    ['two SIGTERMs 2 ms apart', ['SIGTERM', 'SIGTERM']],
    ['Ctrl+C pressed twice', ['SIGINT', 'SIGINT']],
    ['SIGINT then SIGTERM then SIGINT', ['SIGINT', 'SIGTERM', 'SIGINT']],
  ] as const) {
    it(`stops cleanly with exit code 0 on ${name}`, BOUNDED, async () => {
      const home = createTempHome();
      const notifyd = await startNotifyd(home);
      try {
        for (const signal of signals) {
          notifyd.child.kill(signal);
          await sleep(2);
        }
        assert.deepEqual(await notifyd.exited, { code: 0, signal: null });
        assert.match(logText(home), /\[INFO\] Notify stopped\n$/);
      } finally {
        home.cleanup();
      }
    });
  }

  it(
    'ends a stop within its grace period with exit code 0 while a request body is still arriving',
    BOUNDED,
    async () => {
      const home = createTempHome();
      const notifyd = await startNotifyd(home);
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(notifyd.stdout())![1]);
      // Half a body, then silence: the broker's own request timeout (30 s) would hold a stop that long.
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /v1/notifications HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          'Content-Length: 100\r\n\r\n{"title":',
      );
      try {
        await sleep(100);
        notifyd.child.kill('SIGTERM');
        await sleep(2);
        notifyd.child.kill('SIGTERM');
        assert.deepEqual(await notifyd.exited, { code: 0, signal: null });
        assert.match(logText(home), /\[INFO\] Notify stopped\n$/);
      } finally {
        socket.destroy();
        home.cleanup();
      }
    },
  );
});
