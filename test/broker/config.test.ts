import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  createTempHome,
  readConfigFile,
  replaceConfigFile,
  startBroker,
  writeConfig,
} from '../support/broker-process.js';

describe('config.json', () => {
  it('is created on first start with every default, a generated token and mode 0600', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    try {
      const config = readConfigFile(home);
      assert.match(config['authToken'] as string, /^[A-Za-z0-9_-]{43}$/, '32 random bytes in base64url');
      assert.equal(config['port'], broker.port);
      assert.deepEqual(
        {
          maxRequestBodyBytes: config['maxRequestBodyBytes'],
          pauseNotifications: config['pauseNotifications'],
          soundsEnabled: config['soundsEnabled'],
          doNotDisturb: config['doNotDisturb'],
          playCriticalSoundsDuringDoNotDisturb: config['playCriticalSoundsDuringDoNotDisturb'],
          maxVisibleToasts: config['maxVisibleToasts'],
          retentionDays: config['retentionDays'],
        },
        {
          maxRequestBodyBytes: 65536,
          pauseNotifications: false,
          soundsEnabled: true,
          doNotDisturb: false,
          playCriticalSoundsDuringDoNotDisturb: true,
          maxVisibleToasts: 5,
          retentionDays: 30,
        },
      );
      assert.equal(statSync(home.configFile).mode & 0o777, 0o600);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('keeps the token and unknown fields across restarts', async () => {
    const home = createTempHome();
    writeConfig(home, { authToken: 'my-own-token-0123456789', futureSetting: { nested: [1, 2] } });
    const first = await startBroker({ home });
    await first.stop();
    const second = await startBroker({ home });
    try {
      const config = readConfigFile(home);
      assert.equal(config['authToken'], 'my-own-token-0123456789');
      assert.deepEqual(config['futureSetting'], { nested: [1, 2] });
      assert.equal((await second.request('GET', '/v1/health')).status, 200);
    } finally {
      await second.stop();
      home.cleanup();
    }
  });

  it('resets out-of-range values and writes the effective ones back', async () => {
    const home = createTempHome();
    writeConfig(home, {
      maxRequestBodyBytes: 0,
      rateLimitPerSecond: -3,
      maxVisibleToasts: 50,
      retentionDays: 0,
    });
    const broker = await startBroker({ home, config: { rateLimitPerSecond: -3 } });
    try {
      const config = readConfigFile(home);
      assert.equal(config['maxRequestBodyBytes'], 65536);
      assert.equal(config['rateLimitPerSecond'], 30);
      assert.equal(config['maxVisibleToasts'], 20);
      assert.equal(config['retentionDays'], 30);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('clamps maxVisibleToasts below 1 up to 1', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home, config: { maxVisibleToasts: 0 } });
    try {
      assert.equal(readConfigFile(home)['maxVisibleToasts'], 1);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('applies type and rate-limit changes without a restart', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    try {
      const priorityOfDeploy = async () =>
        (
          (await (
            await broker.request('POST', '/v1/notifications', { title: 't', message: 'm', type: 'deploy' })
          ).json()) as {
            priority: string;
          }
        ).priority;
      assert.equal(await priorityOfDeploy(), 'normal');
      const config = readConfigFile(home);
      replaceConfigFile(
        home,
        JSON.stringify({ ...config, rateLimitPerSecond: 3, types: { deploy: { defaultPriority: 'high' } } }),
      );
      await eventually(() => logText(home.logDir).includes('config reloaded: rateLimitPerSecond, types'));
      assert.equal(await priorityOfDeploy(), 'high');
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
      const burst = await Promise.all(
        Array.from({ length: 5 }, () =>
          broker.request('POST', '/v1/notifications', { title: 't', message: 'm' }),
        ),
      );
      assert.equal(burst.filter((response) => response.status === 429).length, 2);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('keeps serving with the previous settings when the file turns malformed while running', async () => {
    const home = createTempHome();
    const broker = await startBroker({
      home,
      config: { types: { deploy: { defaultPriority: 'critical' } } },
    });
    try {
      replaceConfigFile(home, '{ not json');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const response = await broker.request('POST', '/v1/notifications', {
        title: 't',
        message: 'm',
        type: 'deploy',
      });
      assert.equal(response.status, 201);
      assert.equal(((await response.json()) as { priority: string }).priority, 'critical');
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('applies a new maxRequestBodyBytes and a new authToken without a restart', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    try {
      const config = readConfigFile(home);
      replaceConfigFile(
        home,
        JSON.stringify({ ...config, maxRequestBodyBytes: 100, authToken: 'rotated-token-0123456789' }),
      );
      const big = JSON.stringify({ title: 't', message: 'x'.repeat(200) });
      const send = (token: string) =>
        fetch(`${broker.baseUrl}/v1/notifications`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: big,
        });
      await eventually(async () => (await send('rotated-token-0123456789')).status === 413);
      const small = { method: 'POST', body: '{"title":"t","message":"m"}' };
      const withToken = (token: string) =>
        fetch(`${broker.baseUrl}/v1/notifications`, {
          ...small,
          headers: { authorization: `Bearer ${token}` },
        });
      assert.equal((await withToken(broker.token)).status, 401, 'the old token stops working');
      assert.equal((await withToken('rotated-token-0123456789')).status, 201);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('keeps the current token when authToken is removed from the file while running', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    try {
      const withoutToken: Record<string, unknown> = { ...readConfigFile(home), maxVisibleToasts: 3 };
      delete withoutToken['authToken'];
      replaceConfigFile(home, JSON.stringify(withoutToken));
      await eventually(() =>
        logText(home.logDir).includes('authToken was removed from the file; keeping the current token'),
      );
      assert.equal((await broker.request('GET', '/v1/health')).status, 200);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('never logs any part of the token when a reload meets malformed JSON', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    try {
      replaceConfigFile(home, `{"port": ${broker.port},\n "authToken": ${broker.token}}`);
      await eventually(() => logText(home.logDir).includes('config not reloaded'));
      const log = logText(home.logDir);
      // V8 gives a position (so a line and column) when the bare token starts with a digit or "-".
      assert.match(
        log,
        /is not valid JSON \((an unexpected character; check quotes, commas and braces|syntax error at line 2, column \d+)\)/,
      );
      assert.equal(log.includes(broker.token.slice(0, 8)), false);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});

function logText(dir: string): string {
  try {
    return readdirSync(dir)
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('');
  } catch {
    return '';
  }
}

/** Polls until the condition holds (the broker notices file changes within about a second). */
async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within the time limit');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
