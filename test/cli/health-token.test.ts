import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTempHome, freePort, startBroker, writeConfig, useBroker } from '../support/broker-process.js';
import { runNotify, startFakeBroker } from '../support/notify-cli.js';

describe('notify health', () => {
  const broker = useBroker();

  it('prints the detailed GET /v1/health when config.json holds the token', async () => {
    const result = await runNotify(['health'], { env: broker.home.env });
    assert.equal(result.code, 0, result.stderr);
    const health = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(result.stdout, `${JSON.stringify(health, null, 2)}\n`);
    assert.equal(health['status'], 'ok');
    assert.equal(health['apiVersion'], 'v1');
    assert.equal(health['pid'], broker.child.pid);
  });

  it('falls back to GET /health when the token is refused, saying so on stderr', async () => {
    const result = await runNotify(['health', '--token', 'stale'], { env: broker.home.env });
    assert.deepEqual(result, {
      code: 0,
      stdout: '{\n  "status": "ok"\n}\n',
      stderr:
        'Warning: the broker refused the token from --token (401 Unauthorized); showing the open /health instead.\n' +
        `Hint: the token given with --token is not the broker's. 'notify token' prints the one in ${broker.home.configFile}; leave --token out to use it.\n`,
    });
  });

  it('calls only GET /health, without a warning, when no token exists', async () => {
    const home = createTempHome();
    try {
      const result = await runNotify(['health', '--port', String(broker.port)], { env: home.env });
      assert.deepEqual(result, { code: 0, stdout: '{\n  "status": "ok"\n}\n', stderr: '' });
    } finally {
      home.cleanup();
    }
  });

  it('uses NOTIFY_TOKEN like the config token', async () => {
    const home = createTempHome();
    try {
      const env = { ...home.env, NOTIFY_TOKEN: broker.token, NOTIFY_PORT: String(broker.port) };
      const result = await runNotify(['health'], { env });
      assert.equal(result.code, 0);
      assert.equal((JSON.parse(result.stdout) as Record<string, unknown>)['apiVersion'], 'v1');
    } finally {
      home.cleanup();
    }
  });

  it('exits 1 with the error line when /v1/health fails otherwise', async () => {
    const fake = await startFakeBroker(() => ({ status: 503, body: 'maintenance' }));
    const result = await runNotify(['health', '--port', String(fake.port), '--token', 't'], {
      env: broker.home.env,
    });
    await fake.close();
    assert.deepEqual(result, { code: 1, stdout: '', stderr: 'Error 503 Service Unavailable: maintenance\n' });
    assert.deepEqual(
      fake.requests.map((r) => r.url),
      ['/v1/health'],
    );
  });

  it('names the app and the tray icon, then how to start the broker, when nothing listens', async () => {
    const port = await freePort();
    const result = await runNotify(['health', '--port', String(port)], { env: broker.home.env });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: `Could not reach Notify at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}. Is the app running? Check the tray icon.\nHint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.\n`,
    });
  });

  it('rejects options other than --port and --token', async () => {
    const result = await runNotify(['health', '--json'], { env: broker.home.env });
    assert.deepEqual(result, { code: 1, stdout: '', stderr: "unknown option '--json' for health.\n" });
  });
});

describe('notify token', () => {
  it('prints the config token as is, ignoring NOTIFY_TOKEN', async () => {
    const home = createTempHome();
    try {
      writeConfig(home, { port: 1234, authToken: 'abc_DEF-123' });
      const result = await runNotify(['token'], { env: { ...home.env, NOTIFY_TOKEN: 'from-env' } });
      assert.deepEqual(result, { code: 0, stdout: 'abc_DEF-123\n', stderr: '' });
    } finally {
      home.cleanup();
    }
  });

  it('prints the token the broker generated on its first start', async () => {
    const broker = await startBroker();
    try {
      const result = await runNotify(['token'], { env: broker.home.env });
      assert.deepEqual(result, { code: 0, stdout: `${broker.token}\n`, stderr: '' });
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  for (const [what, config] of [['config.json is missing', undefined]] as const) {
    it(`says the service must run once, naming the config file, when ${what}`, async () => {
      const home = createTempHome();
      try {
        if (config) writeConfig(home, config);
        const result = await runNotify(['token'], { env: home.env });
        assert.equal(result.code, 1);
        assert.equal(result.stdout, '');
        assert.equal(
          result.stderr,
          `No token yet: Notify creates one when it runs for the first time. Start it once (notifyd), then run 'notify token' again. Config file: ${home.configFile}\n`,
        );
      } finally {
        home.cleanup();
      }
    });
  }

  it('exits 1 naming the file when config.json is not JSON', async () => {
    const home = createTempHome();
    try {
      writeConfig(home, {});
      const { writeFileSync } = await import('node:fs');
      writeFileSync(home.configFile, '{ not json');
      const result = await runNotify(['token'], { env: home.env });
      assert.equal(result.code, 1);
      assert.ok(result.stderr.startsWith(`Cannot read the token: ${home.configFile} is not valid JSON`));
    } finally {
      home.cleanup();
    }
  });
});
