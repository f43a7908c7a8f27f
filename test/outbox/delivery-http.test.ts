import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson, OUTBOX_BROKER, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

describe('outbound delivery through the real broker', () => {
  const broker = useBroker({ script: OUTBOX_BROKER, env: { NOTIFY_TEST_FIRST_BACKOFF_MS: '50' } });
  let receiver: Receiver;
  let providerId: string;
  let routeId: string;

  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const counts = async () => (await json('GET', '/v1/outbox/counts')).body!;
  const notify = (fields: Record<string, unknown> = {}) =>
    json('POST', '/v1/notifications', {
      title: 'Build failed',
      message: 'secret-ish details',
      priority: 'high',
      ...fields,
    });

  before(async () => {
    receiver = await startReceiver(() => ({ status: 200, headers: { 'x-reference': 'msg-1' } }));
  });
  after(() => receiver.close());

  it('lists the provider kinds with their declared settings', async () => {
    const kinds = await json('GET', '/v1/provider-kinds');
    assert.equal(kinds.status, 200);
    const kind = kinds.body!.find((candidate: { id: string }) => candidate.id === 'test-http');
    assert.deepEqual(
      kind.settings.map((setting: { name: string }) => setting.name),
      ['url', 'token'],
    );
  });

  it('creates a provider disabled, and says which secrets are set without their values', async () => {
    const created = await json('POST', '/v1/providers', {
      kind: 'test-http',
      name: 'hook',
      settings: { url: receiver.url, token: 'tok-s3cret-value' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body!['enabled'], false);
    assert.deepEqual(created.body!['secrets'], { token: true });
    assert.deepEqual(created.body!['settings'], { url: receiver.url });
    assert.ok(!JSON.stringify(await json('GET', '/v1/providers')).includes('tok-s3cret-value'));
    providerId = created.body!['id'];
  });

  it('refuses settings that break the declarations, naming the setting', async () => {
    const missing = await json('POST', '/v1/providers', { kind: 'test-http', settings: {} });
    assert.equal(missing.status, 400);
    assert.match(missing.body!['error'], /^settings\.url is required/);
    const unknown = await json('POST', '/v1/providers', { kind: 'nope' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body!['error'], /^unknown provider kind "nope"/);
    const misspelt = await json('POST', '/v1/providers', {
      kind: 'test-http',
      setings: { url: receiver.url },
    });
    assert.deepEqual(misspelt, {
      status: 400,
      body: { error: 'unknown field "setings"; allowed fields are kind, name, settings, enabled' },
    });
  });

  it('counts names and filters in characters, as notifications count them (an emoji is one)', async () => {
    const provider = await json('POST', '/v1/providers', {
      kind: 'test-http',
      name: '📡'.repeat(100),
      settings: { url: receiver.url },
    });
    assert.deepEqual([provider.status, provider.body!['name']], [201, '📡'.repeat(100)]);
    const renamed = await json('PATCH', `/v1/providers/${provider.body!['id']}`, { name: '🛰'.repeat(100) });
    assert.deepEqual([renamed.status, renamed.body!['name']], [200, '🛰'.repeat(100)]);
    const route = await json('POST', '/v1/routes', {
      providerId: provider.body!['id'],
      name: '🚦'.repeat(100),
      agent: '🤖'.repeat(100),
      project: '📁'.repeat(200),
    });
    assert.equal(route.status, 201, JSON.stringify(route.body));
    assert.deepEqual(
      [route.body!['name'], route.body!['agent'], route.body!['project']],
      ['🚦'.repeat(100), '🤖'.repeat(100), '📁'.repeat(200)],
    );
    const tooLong = await json('PATCH', `/v1/routes/${route.body!['id']}`, { agent: '🤖'.repeat(101) });
    assert.equal(tooLong.status, 400);
    await json('DELETE', `/v1/routes/${route.body!['id']}`);
    await json('DELETE', `/v1/providers/${provider.body!['id']}`);
  });

  it('creates a route disabled and enqueues nothing while it or its provider is disabled', async () => {
    const created = await json('POST', '/v1/routes', { providerId, minimumPriority: 'high' });
    assert.equal(created.status, 201);
    assert.equal(created.body!['enabled'], false);
    routeId = created.body!['id'];
    await notify();
    await json('POST', `/v1/routes/${routeId}/enable`);
    await notify();
    assert.deepEqual(await counts(), {
      waiting: 0,
      pending: 0,
      in_flight: 0,
      delivered: 0,
      dead: 0,
      cancelled: 0,
    });
  });

  it('delivers a matching notification with the same idempotency key the outbox shows, and the secret', async () => {
    await json('POST', `/v1/providers/${providerId}/enable`);
    const created = await notify();
    await waitFor(async () => (await counts())['delivered'] === 1, 'the delivery');
    const request = receiver.received.at(-1)!;
    assert.equal(request.body['operation'], 'send');
    assert.equal(request.body['event'], 'notification.created');
    assert.equal((request.body['notification'] as { id: string }).id, created.body!['id']);
    assert.equal(request.headers['authorization'], 'Bearer tok-s3cret-value');
    const items = (await json('GET', '/v1/outbox?state=delivered')).body!;
    assert.equal(request.headers['idempotency-key'], items[0].idempotencyKey);
  });

  it('enqueues nothing for a notification below the route minimum', async () => {
    const before = receiver.received.length;
    await notify({ priority: 'normal' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.received.length, before);
  });

  it('sends only the title when the route does not include the message', async () => {
    await json('PATCH', `/v1/routes/${routeId}`, { includeMessage: false });
    const before = receiver.received.length;
    await notify({ title: 'Title only' });
    await waitFor(() => receiver.received.length > before, 'the delivery');
    const notification = receiver.received.at(-1)!.body['notification'] as Record<string, unknown>;
    assert.equal(notification['title'], 'Title only');
    assert.equal('message' in notification, false);
    await json('PATCH', `/v1/routes/${routeId}`, { includeMessage: true });
  });

  it('clears a delivered notification on resolve with the stored reference, and never alerts twice', async () => {
    const created = await notify({ key: 'deploy' });
    await waitFor(
      () =>
        receiver.received.some((r) => (r.body['notification'] as { id: string }).id === created.body!['id']),
      'the send',
    );
    await notify({ key: 'deploy', title: 'Build failed again' });
    await json('PATCH', `/v1/notifications/${created.body!['id']}`, { status: 'resolved' });
    const ops = await waitFor(() => {
      const mine = receiver.received.filter(
        (r) => (r.body['notification'] as { id: string }).id === created.body!['id'],
      );
      return mine.length === 3 && mine;
    }, 'the update and the clear');
    assert.deepEqual(
      ops.map((r) => r.body['operation']),
      ['send', 'update', 'clear'],
    );
    assert.deepEqual(
      ops.map((r) => r.body['event']),
      ['notification.created', 'notification.updated', 'notification.resolved'],
    );
    assert.equal(ops[2]!.body['reference'], 'msg-1');
    assert.equal(new Set(ops.map((r) => r.headers['idempotency-key'])).size, 3);
  });

  it('retries a 503 with the same idempotency key until it is delivered', async () => {
    let failures = 2;
    receiver.answer = () => (failures-- > 0 ? { status: 503 } : { status: 200 });
    const before = receiver.received.length;
    await notify({ title: 'flaky' });
    await waitFor(() => receiver.received.length === before + 3, 'three attempts');
    const keys = receiver.received.slice(before).map((r) => r.headers['idempotency-key']);
    assert.equal(new Set(keys).size, 1);
    await waitFor(
      async () => (await counts())['pending'] === 0 && (await counts())['in_flight'] === 0,
      'settling',
    );
    receiver.answer = () => ({ status: 200 });
  });

  it('dead-letters a 400 at once with its reason code, and retries it on request', async () => {
    receiver.answer = () => ({ status: 400 });
    const before = receiver.received.length;
    await notify({ title: 'refused' });
    const dead = await waitFor(
      async () => (await json('GET', '/v1/outbox?state=dead')).body![0],
      'the dead item',
    );
    assert.equal(receiver.received.length, before + 1);
    assert.equal(dead.lastReason, 'http_400');
    assert.equal(dead.lastStatus, 400);
    receiver.answer = () => ({ status: 200 });
    const retried = await json('POST', `/v1/outbox/${dead.id}/retry`);
    assert.equal(retried.status, 200);
    await waitFor(async () => {
      const now = await counts();
      return now['dead'] === 0 && now['pending'] === 0 && now['in_flight'] === 0;
    }, 'the retried item to be delivered');
    const again = await json('POST', `/v1/outbox/${dead.id}/retry`);
    assert.equal(again.status, 400);
    assert.equal(again.body!['error'], 'only a dead item can be retried; this one is delivered');
  });

  it('sends again after a dead send when the notification is updated in place, and nothing on its resolve', async () => {
    const itemsOf = async (id: string) =>
      ((await json('GET', '/v1/outbox?limit=500')).body! as Body[]).filter(
        (item) => item.notificationId === id,
      );
    const requestsFor = (id: string) =>
      receiver.received.filter((r) => (r.body['notification'] as { id: string }).id === id);
    receiver.answer = () => ({ status: 400 });
    const created = await notify({ key: 'refused-then-fixed', title: 'first' });
    const id = created.body!['id'] as string;
    await waitFor(async () => (await itemsOf(id))[0]?.state === 'dead', 'the dead send');
    receiver.answer = () => ({ status: 200, headers: { 'x-reference': 'msg-2' } });
    await notify({ key: 'refused-then-fixed', title: 'second' });
    const requests = await waitFor(() => requestsFor(id).length === 2 && requestsFor(id), 'the send again');
    assert.deepEqual(
      requests.map((r) => [r.body['operation'], (r.body['notification'] as { title: string }).title]),
      [
        ['send', 'first'],
        ['send', 'second'],
      ],
    );
    const [item] = await waitFor(async () => {
      const items = await itemsOf(id);
      return items[0]?.state === 'delivered' && items;
    }, 'the send delivered');
    assert.equal((await itemsOf(id)).length, 1, 'one send per route and lifecycle');
    assert.deepEqual(
      [item!.attempts, item!.idempotencyKey, item!.lastReason],
      [1, requests[0]!.headers['idempotency-key'], null],
    );

    receiver.answer = () => ({ status: 400 });
    const other = (await notify({ key: 'refused-then-resolved' })).body!['id'] as string;
    await waitFor(async () => (await itemsOf(other))[0]?.state === 'dead', 'the other dead send');
    receiver.answer = () => ({ status: 200 });
    assert.equal((await json('PATCH', `/v1/notifications/${other}`, { status: 'resolved' })).status, 200);
    assert.deepEqual(
      (await itemsOf(other)).map((each) => [each.operation, each.state]),
      [['send', 'dead']],
      'nothing arrived there to clear',
    );
  });

  it('answers the Test action in one sentence through the same adapter', async () => {
    const before = receiver.received.length;
    const result = await json('POST', `/v1/providers/${providerId}/test`);
    assert.equal(result.status, 200);
    assert.equal(result.body!['outcome'], 'delivered');
    assert.equal(result.body!['summary'], 'Test HTTP accepted the test notification (HTTP 200).');
    assert.equal(receiver.received[before]!.body['event'], 'notification.test');
  });

  it('keeps secrets out of the database file and the log, in an owner-only key file', async () => {
    const dataDir = join(broker.home.home, '.local', 'share', 'notify');
    const keyFile = join(dataDir, 'secrets.key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    for (const file of readdirSync(dataDir)) {
      assert.ok(!readFileSync(join(dataDir, file)).includes('tok-s3cret-value'), `${file} holds the secret`);
    }
    const log = readdirSync(broker.home.logDir)
      .map((file) => readFileSync(join(broker.home.logDir, file), 'utf8'))
      .join('');
    assert.ok(!log.includes('tok-s3cret-value'));
    assert.equal(log.match(/secrets: no OS keyring answered/g)?.length, 1);
  });

  it('purges delivered items and deletes routes and providers', async () => {
    const purged = await json('POST', '/v1/outbox/purge-delivered');
    assert.equal(purged.status, 200);
    assert.ok(purged.body!['purged'] >= 1);
    assert.equal((await json('DELETE', `/v1/routes/${routeId}`)).status, 204);
    assert.equal((await json('DELETE', `/v1/providers/${providerId}`)).status, 204);
    const gone = await json('GET', `/v1/providers/${providerId}`);
    assert.deepEqual(gone, { status: 404, body: { error: 'provider not found' } });
  });
});
