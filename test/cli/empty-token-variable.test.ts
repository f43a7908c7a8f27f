import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTempHome, writeConfig, type TempHome } from '../support/broker-process.js';
import { runNotify, startFakeBroker, type FakeBroker } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { fixtures, runHook } from '../hooks/support.js';

/**
 * docs/cli.md "Connection": an empty or blank NOTIFY_TOKEN (or NOTIFY_PORT) counts as unset, so the
 * config file's value is used; `export NOTIFY_TOKEN=` must not send an empty bearer or drop the token.
 */
describe('an empty NOTIFY_TOKEN counts as unset', () => {
  let home: TempHome;
  let broker: FakeBroker;
  before(async () => {
    home = createTempHome();
    broker = await startFakeBroker((request) => ({
      status: request.method === 'GET' ? 200 : 201,
      body: request.url.startsWith('/v1/notifications?')
        ? '[]'
        : request.url === '/v1/presentation/waiting'
          ? '{"waiting":0,"byType":{}}'
          : '{"id":"n1","status":"active"}',
    }));
  });
  beforeEach(() => broker.requests.splice(0));
  after(async () => {
    await broker.close();
    home.cleanup();
  });

  const sentTokens = () => broker.requests.map((request) => request.headers.authorization);

  for (const empty of ['', '   ']) {
    it(`notify sends config.json's token when NOTIFY_TOKEN is ${JSON.stringify(empty)}`, async () => {
      writeConfig(home, { port: broker.port, authToken: 'from-config' });
      const result = await runNotify(['Deploy?'], { env: { ...home.env, NOTIFY_TOKEN: empty } });
      assert.deepEqual([result.code, result.stderr], [0, '']);
      assert.deepEqual(sentTokens(), ['Bearer from-config']);
    });
  }

  it('notify with an empty NOTIFY_TOKEN and no token in config.json warns and sends no Authorization', async () => {
    writeConfig(home, { port: broker.port });
    const result = await runNotify(['Deploy?'], { env: { ...home.env, NOTIFY_TOKEN: '' } });
    assert.equal(result.code, 0);
    assert.equal(
      result.stderr,
      `Warning: no token found. Pass --token, set NOTIFY_TOKEN, or start Notify once so that it writes authToken to ${home.configFile}. Sending the request without a token.\n`,
    );
    assert.deepEqual(sentTokens(), [undefined]);
  });

  it("notifyctl sends config.json's token when NOTIFY_TOKEN is empty", async () => {
    writeConfig(home, { port: broker.port, authToken: 'from-config' });
    const result = await runNotifyctl(['count'], { env: { ...home.env, NOTIFY_TOKEN: '' } });
    assert.equal(result.stderr, '');
    assert.deepEqual(sentTokens(), ['Bearer from-config']);
  });

  it("the hook sends config.json's token and port when NOTIFY_TOKEN and NOTIFY_PORT are empty", async () => {
    writeConfig(home, { port: broker.port, authToken: 'from-config' });
    const result = await runHook(['claude'], JSON.stringify(fixtures('claude')['Stop']), {
      ...home.env,
      NOTIFY_TOKEN: '',
      NOTIFY_PORT: '',
    });
    assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', '']);
    assert.deepEqual(
      broker.requests.map((request) => [request.url, request.headers.authorization]),
      [['/v1/events', 'Bearer from-config']],
    );
  });
});
