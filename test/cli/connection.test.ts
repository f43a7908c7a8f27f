import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTempHome, writeConfig, type TempHome } from '../support/broker-process.js';
import { CONNECTION_FLAGS, parseArgs } from '../../src/cli/notify/args.js';
import { resolveConnection } from '../../src/cli/notify/connection.js';
import { runNotify, startFakeBroker, type FakeBroker } from '../support/notify-cli.js';

const DEFAULT_PORT = 47821;

const CREATED = { id: 'n1', title: 'T', status: 'active' };

describe('notify port and token resolution, and what it sends', () => {
  let home: TempHome;
  let brokers: FakeBroker[];
  before(async () => {
    home = createTempHome();
    // Three fake brokers stand for the flag, the variable and the config file: whichever one is
    // called shows which port won, and the Authorization header shows which token won.
    brokers = await Promise.all(
      [0, 1, 2].map(() =>
        startFakeBroker((request) => ({
          status: request.method === 'GET' ? 200 : 201,
          body: JSON.stringify(request.method === 'GET' ? [] : CREATED),
        })),
      ),
    );
  });
  after(async () => {
    await Promise.all(brokers.map((broker) => broker.close()));
    home.cleanup();
  });

  const flagPort = () => brokers[0]!.port;
  const envPort = () => brokers[1]!.port;
  const configPort = () => brokers[2]!.port;
  const lastCall = () => {
    const calls = brokers.flatMap((broker, index) => broker.requests.map((request) => ({ index, request })));
    brokers.forEach((broker) => broker.requests.splice(0));
    assert.equal(calls.length, 1);
    return calls[0]!;
  };
  const send = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = await runNotify(['T', ...args], { env: { ...home.env, ...env } });
    assert.equal(result.code, 0, result.stderr);
    return lastCall();
  };

  it('takes --port over NOTIFY_PORT over config.json, and --token over NOTIFY_TOKEN over config.json', async () => {
    writeConfig(home, { port: configPort(), authToken: 'from-config' });
    const env = { NOTIFY_PORT: String(envPort()), NOTIFY_TOKEN: 'from-env' };
    const viaFlags = await send(['--port', String(flagPort()), '--token', 'from-flag'], env);
    assert.equal(viaFlags.index, 0);
    assert.equal(viaFlags.request.headers.authorization, 'Bearer from-flag');
    const viaEnv = await send([], env);
    assert.equal(viaEnv.index, 1);
    assert.equal(viaEnv.request.headers.authorization, 'Bearer from-env');
    const viaConfig = await send([]);
    assert.equal(viaConfig.index, 2);
    assert.equal(viaConfig.request.headers.authorization, 'Bearer from-config');
  });

  it('calls 127.0.0.1 with the native create body and no priority or type it was not given', async () => {
    writeConfig(home, { port: configPort(), authToken: 'from-config' });
    const { request } = await send(['the message', '--project', 'api', '--pid', '12'], {
      NOTIFY_AGENT: 'ci',
    });
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1/notifications');
    assert.equal(request.headers.host, `127.0.0.1:${configPort()}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body), {
      title: 'T',
      message: 'the message',
      agent: 'ci',
      project: 'api',
      cwd: process.cwd(),
      pid: 12,
    });
  });

  it('sends list filters as query parameters with the client default limit of 20', async () => {
    writeConfig(home, { port: configPort(), authToken: 'x' });
    brokers[2]!.requests.splice(0);
    const result = await runNotify(
      ['list', '--unresolved', '--type', 'Input-Required', '--agent', ' codex '],
      {
        env: home.env,
      },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      lastCall().request.url,
      '/v1/notifications?limit=20&unresolved=true&type=input_required&agent=codex',
    );
  });

  it('warns on stderr without a token and still sends the request', async () => {
    writeConfig(home, { port: configPort() });
    const result = await runNotify(['T'], { env: home.env });
    assert.equal(result.code, 0);
    assert.equal(
      result.stderr,
      `Warning: no token found. Pass --token, set NOTIFY_TOKEN, or start Notify once so that it writes authToken to ${home.configFile}. Sending the request without a token.\n`,
    );
    assert.equal(lastCall().request.headers.authorization, undefined);
  });

  it('falls back to port 47821 without config.json and never creates the file', () => {
    // Resolved in-process: a request to 47821 would reach the developer's own notifyd, or bind the port
    // it wants; tests talk only to ports they chose.
    const bare = createTempHome();
    try {
      const connection = resolveConnection(parseArgs(['--token', 't'], CONNECTION_FLAGS, String), {
        ...bare.env,
        NOTIFY_PORT: '',
      });
      assert.equal(connection.port, DEFAULT_PORT);
      assert.equal(connection.baseUrl, 'http://127.0.0.1:47821');
      assert.equal(existsSync(bare.configFile), false);
    } finally {
      bare.cleanup();
    }
  });

  it('only reads config.json: its content and mtime are unchanged after a command', async () => {
    writeConfig(home, { port: configPort(), authToken: 'from-config', extra: true });
    const before = { text: readFileSync(home.configFile, 'utf8'), mtime: statSync(home.configFile).mtimeMs };
    await send([]);
    assert.deepEqual(
      { text: readFileSync(home.configFile, 'utf8'), mtime: statSync(home.configFile).mtimeMs },
      before,
    );
  });

  it('warns about a malformed config.json and goes on without it', async () => {
    writeConfig(home, {});
    writeFileSync(home.configFile, '{ broken');
    const settled = await runNotify(['T', '--port', String(flagPort()), '--token', 't'], { env: home.env });
    assert.deepEqual([settled.code, settled.stderr], [0, ''], 'not read when flags settle port and token');
    assert.equal(lastCall().index, 0);
    const open = await runNotify(['T'], { env: { ...home.env, NOTIFY_PORT: String(envPort()) } });
    assert.equal(open.code, 0);
    const [configWarning, tokenWarning] = open.stderr.split('\n');
    assert.match(configWarning!, /^Warning: \S+config\.json is not valid JSON \(.*\); ignoring it\.$/);
    assert.equal(
      tokenWarning,
      `Warning: no token found: fix ${home.configFile} (notifyd refuses to start with it too), or pass --token or set NOTIFY_TOKEN. Sending the request without a token.`,
    );
    assert.equal(lastCall().index, 1);
  });

  it('exits 1 for an invalid NOTIFY_PORT', async () => {
    writeConfig(home, { port: configPort(), authToken: 'x' });
    const result = await runNotify(['T'], { env: { ...home.env, NOTIFY_PORT: '99999' } });
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: 'NOTIFY_PORT must be an integer from 1 to 65535.\n',
    });
  });
});
