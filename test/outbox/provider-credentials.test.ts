import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../../src/store/database.js';
import { createTempHome, startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';
import { callJson } from '../support/outbox-broker.js';
import { runNode } from '../support/run-node.js';

const TOPIC = 'phone-alerts-x7Qv93kLw2';

describe('credentials in provider settings', () => {
  const broker = useBroker();
  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const ctl = (args: string[], stdin = '') =>
    runNode(NOTIFYCTL, [...args, '--port', String(broker.port)], { env: broker.home.env, stdin });

  it('refuses a URL with user:password@, naming the setting to use instead, and stores nothing', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'webhook',
        { url: 'https://ada:hunter2@hooks.example.com/in' },
        'settings.url must not hold a user name or password (user:password@): it would be stored and shown in clear; ' +
          'use headerName Authorization with the secret headerValue "Basic <base64 of user:password>", or the secret bearerToken instead',
      ],
      [
        'ntfy',
        { serverUrl: 'https://ada:hunter2@ntfy.example.com', topic: TOPIC },
        'settings.serverUrl must not hold a user name or password (user:password@): it would be stored and shown in clear; ' +
          'use username and the secret password (or the secret accessToken) instead',
      ],
      [
        'gotify',
        { serverUrl: 'https://ada@gotify.example.com', appToken: 'A1b2' },
        'settings.serverUrl must not hold a user name or password (user:password@): it would be stored and shown in clear; ' +
          'use the secret setting appToken instead',
      ],
      [
        'ntfy',
        { topic: TOPIC, clickUrl: 'https://ada:hunter2@example.com/' },
        'settings.clickUrl must not hold a user name or password (user:password@): it would be stored and shown in clear',
      ],
    ];
    for (const [kind, settings, error] of cases) {
      const created = await json('POST', '/v1/providers', { kind, settings });
      assert.equal(created.status, 400, kind);
      assert.equal(created.body!['error'], error);
    }
    assert.deepEqual((await json('GET', '/v1/providers')).body, []);
  });

  it('refuses user:password@ on update too, leaving the provider as it was', async () => {
    const created = await json('POST', '/v1/providers', {
      kind: 'webhook',
      settings: { url: 'https://hooks.example.com/in' },
    });
    assert.equal(created.status, 201);
    const id = created.body!['id'] as string;
    const updated = await json('PATCH', `/v1/providers/${id}`, {
      settings: { url: 'https://ada:hunter2@hooks.example.com/in' },
    });
    assert.equal(updated.status, 400);
    assert.match(updated.body!['error'], /^settings\.url must not hold a user name or password/);
    assert.equal(
      (await json('GET', `/v1/providers/${id}`)).body!['settings']['url'],
      'https://hooks.example.com/in',
    );
    await json('DELETE', `/v1/providers/${id}`);
  });

  it("keeps ntfy's topic secret: never returned by the API or printed by providers show", async () => {
    const onArgv = await ctl(['providers', 'add', 'ntfy', '--set', `topic=${TOPIC}`]);
    assert.equal(onArgv.code, 1);
    assert.equal(
      onArgv.stderr,
      'topic is secret: use --secret topic and type it at the prompt or pipe it on stdin.\n',
    );
    const added = await ctl(['providers', 'add', 'ntfy', '--secret', 'topic', '--json'], `${TOPIC}\n`);
    assert.equal(added.code, 0, added.stderr);
    const provider = JSON.parse(added.stdout) as { id: string; secrets: Record<string, boolean> };
    assert.equal(provider.secrets['topic'], true);
    const listed = await json('GET', '/v1/providers');
    assert.ok(!JSON.stringify(listed.body).includes(TOPIC));
    const shown = await ctl(['providers', 'show', provider.id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^ {2}topic = \(secret, set\)$/m);
    assert.ok(!shown.stdout.includes(TOPIC));
    assert.ok(!readFileSync(broker.home.databaseFile).includes(TOPIC));
    await json('DELETE', `/v1/providers/${provider.id}`);
  });
});

describe('an ntfy topic stored in clear before it was declared secret', () => {
  const home = createTempHome();
  let broker: BrokerProcess | undefined;
  after(async () => {
    await broker?.stop();
    home.cleanup();
  });

  it('is sealed at the next start and no longer returned', async () => {
    broker = await startBroker({ home });
    await broker.stop();
    const db = openDatabase(home.databaseFile);
    db.prepare(
      `INSERT INTO providers (id, kind, name, enabled, settings, created_at, updated_at)
       VALUES ('p-old', 'ntfy', 'phone', 0, ?, 0, 0)`,
    ).run(JSON.stringify({ serverUrl: 'https://ntfy.sh', topic: TOPIC }));
    db.close();
    broker = await startBroker({ home });
    const provider = await callJson(broker, 'GET', '/v1/providers/p-old');
    assert.deepEqual(provider.body!['settings'], { serverUrl: 'https://ntfy.sh' });
    assert.equal(provider.body!['secrets']['topic'], true);
    await broker.stop();
    broker = undefined;
    assert.ok(!readFileSync(home.databaseFile).includes(TOPIC));
  });
});
