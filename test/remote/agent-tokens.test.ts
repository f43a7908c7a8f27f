import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { arcEvent, keyedEvent } from '../arc/fixtures.js';
import { startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

const REFUSAL = { error: 'this token may only raise and follow its own notifications' };

/** `notifyctl tokens create`, as a person runs it: the token is the last line of its output. */
async function createToken(broker: BrokerProcess, name: string, ...extra: string[]): Promise<string> {
  const result = await runNotifyctl(['tokens', 'create', name, ...extra], { env: broker.home.env });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trimEnd().split('\n').at(-1)!;
}

function as(broker: BrokerProcess, token: string) {
  return (method: string, path: string, body?: unknown) =>
    broker.request(method, path, body, { authorization: `Bearer ${token}` });
}

const logText = (broker: BrokerProcess) =>
  readdirSync(broker.home.logDir)
    .map((name) => readFileSync(join(broker.home.logDir, name), 'utf8'))
    .join('');

interface Row {
  method: string;
  /** The path as openapi.json names it; {id} is a notification the agent raised, unless `others`. */
  path: string;
  body?: unknown;
  /** The status an agent token gets; 403 always with the one refusal. */
  status: number;
}

/** Every route of the broker, with what an agent token gets there (issue 33's list). */
const TABLE: Row[] = [
  { method: 'GET', path: '/health', status: 200 },
  { method: 'GET', path: '/v1/health', status: 200 },
  { method: 'POST', path: '/v1/notifications', body: { title: 'Build done', message: 'ok' }, status: 201 },
  { method: 'GET', path: '/v1/notifications', status: 200 },
  { method: 'GET', path: '/v1/notifications/{id}', status: 200 },
  { method: 'PATCH', path: '/v1/notifications/{id}', body: { status: 'resolved' }, status: 200 },
  { method: 'POST', path: '/v1/notifications/{id}/dismiss', status: 200 },
  { method: 'POST', path: '/v1/notifications/{id}/snooze', body: { minutes: 5 }, status: 200 },
  { method: 'POST', path: '/v1/notifications/{id}/focus', status: 403 },
  { method: 'GET', path: '/v1/notifications/{id}/answer', status: 200 },
  { method: 'POST', path: '/v1/notifications/{id}/answer', body: { action: 'allow' }, status: 403 },
  { method: 'POST', path: '/v1/events', body: arcEvent(), status: 201 },
  { method: 'GET', path: '/v1/stream', status: 403 },
  { method: 'GET', path: '/v1/settings', status: 403 },
  { method: 'PATCH', path: '/v1/settings', body: { doNotDisturb: true }, status: 403 },
  { method: 'GET', path: '/v1/types', status: 403 },
  { method: 'PUT', path: '/v1/types/{id}', body: {}, status: 403 },
  { method: 'DELETE', path: '/v1/types/{id}', status: 403 },
  { method: 'GET', path: '/v1/sounds', status: 403 },
  { method: 'PUT', path: '/v1/sounds/{name}', body: 'RIFF', status: 403 },
  { method: 'DELETE', path: '/v1/sounds/{name}', status: 403 },
  { method: 'POST', path: '/v1/sounds/{name}/preview', status: 403 },
  { method: 'GET', path: '/v1/presentation', status: 403 },
  { method: 'POST', path: '/v1/presentation/test', status: 403 },
  { method: 'GET', path: '/v1/presentation/waiting', status: 403 },
  { method: 'GET', path: '/v1/provider-kinds', status: 403 },
  { method: 'GET', path: '/v1/providers', status: 403 },
  { method: 'POST', path: '/v1/providers', body: { kind: 'webhook', settings: {} }, status: 403 },
  { method: 'GET', path: '/v1/providers/{id}', status: 403 },
  { method: 'PATCH', path: '/v1/providers/{id}', body: {}, status: 403 },
  { method: 'DELETE', path: '/v1/providers/{id}', status: 403 },
  { method: 'POST', path: '/v1/providers/{id}/enable', status: 403 },
  { method: 'POST', path: '/v1/providers/{id}/disable', status: 403 },
  { method: 'POST', path: '/v1/providers/{id}/test', status: 403 },
  { method: 'GET', path: '/v1/providers/{id}/connection', status: 403 },
  { method: 'GET', path: '/v1/routes', status: 403 },
  { method: 'POST', path: '/v1/routes', body: {}, status: 403 },
  { method: 'GET', path: '/v1/routes/{id}', status: 403 },
  { method: 'PATCH', path: '/v1/routes/{id}', body: {}, status: 403 },
  { method: 'DELETE', path: '/v1/routes/{id}', status: 403 },
  { method: 'POST', path: '/v1/routes/{id}/enable', status: 403 },
  { method: 'POST', path: '/v1/routes/{id}/disable', status: 403 },
  { method: 'GET', path: '/v1/outbox', status: 403 },
  { method: 'GET', path: '/v1/outbox/counts', status: 403 },
  { method: 'POST', path: '/v1/outbox/{id}/retry', status: 403 },
  { method: 'POST', path: '/v1/outbox/purge-delivered', status: 403 },
  { method: 'POST', path: '/v1/web/login-codes', status: 403 },
  { method: 'GET', path: '/v1/web/session', status: 403 },
  { method: 'GET', path: '/v1/web/sessions', status: 403 },
  { method: 'DELETE', path: '/v1/web/sessions', status: 403 },
  { method: 'DELETE', path: '/v1/web/sessions/{id}', status: 403 },
  { method: 'POST', path: '/v1/web/logout', status: 403 },
  { method: 'GET', path: '/v1/tokens', status: 403 },
  { method: 'POST', path: '/v1/tokens', body: { name: 'more' }, status: 403 },
  { method: 'DELETE', path: '/v1/tokens/{name}', status: 403 },
  { method: 'GET', path: '/v1/openapi.json', status: 403 },
];

describe('agent tokens: what a token made for an agent elsewhere may do', () => {
  const broker = useBroker();

  it('covers every route of the broker: each one allowed or refused with 403', async () => {
    const document = (await (await broker.request('GET', '/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(new Set(TABLE.map((row) => `${row.method} ${row.path}`)), new Set(routes));

    const agent = as(broker, await createToken(broker, 'api-box'));
    for (const row of TABLE) {
      const own = await agent('POST', '/v1/notifications', { title: 'Mine', message: 'from the box' });
      const { id } = (await own.json()) as { id: string };
      const path = row.path.replace('{id}', id).replace('{name}', 'api-box');
      const body = typeof row.body === 'string' ? row.body : row.body;
      const response = await agent(row.method, path, body);
      const text = await response.text();
      assert.equal(response.status, row.status, `${row.method} ${row.path}: ${text}`);
      if (row.status === 403) assert.deepEqual(JSON.parse(text), REFUSAL, `${row.method} ${row.path}`);
    }
    // The refusals changed nothing: the owner's settings and tokens are as they were.
    const settings = (await (await broker.request('GET', '/v1/settings')).json()) as Record<string, unknown>;
    assert.equal(settings['doNotDisturb'], false);
  });

  it("marks what it raises with its name, lists only its own, and never touches another's", async () => {
    const agent = as(broker, await createToken(broker, 'dev-box'));
    const theirs = (await (
      await broker.request('POST', '/v1/notifications', { title: 'Owner', message: 'x', key: 'deploy' })
    ).json()) as { id: string };
    const created = await agent('POST', '/v1/notifications', {
      title: 'Needs input',
      message: 'y',
      agent: 'claude-code',
    });
    const mine = (await created.json()) as { id: string; raisedBy?: string; agent: string };
    assert.equal(mine.raisedBy, 'dev-box');
    const ownerView = (await (
      await broker.request('GET', `/v1/notifications/${theirs.id}`)
    ).json()) as Record<string, unknown>;
    assert.equal('raisedBy' in ownerView, false, 'raisedBy appears only when set');

    const listed = (await (await agent('GET', '/v1/notifications?limit=500')).json()) as {
      raisedBy?: string;
    }[];
    assert.ok(listed.length >= 1);
    assert.ok(listed.every((n) => n.raisedBy === 'dev-box'));

    for (const [method, path, body] of [
      ['GET', `/v1/notifications/${theirs.id}`, undefined],
      ['PATCH', `/v1/notifications/${theirs.id}`, { status: 'dismissed' }],
      ['POST', `/v1/notifications/${theirs.id}/dismiss`, undefined],
      ['POST', `/v1/notifications/${theirs.id}/snooze`, { minutes: 5 }],
      ['GET', `/v1/notifications/${theirs.id}/answer`, undefined],
      // A key another raised: no refresh in place of the owner's notification.
      ['POST', '/v1/notifications', { title: 'Hijack', message: 'z', key: 'deploy' }],
      ['POST', '/v1/events', keyedEvent('request.updated', 'deploy', { message: 'hijacked' })],
      ['POST', '/v1/events', keyedEvent('request.resolved', 'deploy')],
    ] as const) {
      const response = await agent(method, path, body);
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.deepEqual(await response.json(), REFUSAL);
    }
    const after = (await (await broker.request('GET', `/v1/notifications/${theirs.id}`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(after['status'], 'active');
    assert.equal(after['title'], 'Owner');
    assert.equal(after['revision'], 1);

    // Its own keyed condition it may refresh and resolve through ARC.
    const raised = await agent('POST', '/v1/events', keyedEvent('request.created', 'ci-dev-box'));
    assert.equal(raised.status, 201);
    assert.equal(((await raised.json()) as { raisedBy: string }).raisedBy, 'dev-box');
    const resolved = await agent('POST', '/v1/events', keyedEvent('request.resolved', 'ci-dev-box'));
    assert.equal(((await resolved.json()) as { status: string }).status, 'resolved');
  });

  it('lists tokens without their value, refuses a revoked one with 401, and logs names only', async () => {
    const token = await createToken(broker, 'ci-runner', '--expires', '30d');
    assert.match(token, /^nfa_[A-Za-z0-9_-]{43}$/);
    const agent = as(broker, token);
    assert.equal((await agent('GET', '/v1/health')).status, 200);

    const list = await runNotifyctl(['tokens', 'list'], { env: broker.home.env });
    assert.equal(list.code, 0, list.stderr);
    const line = list.stdout.split('\n').find((l) => l.startsWith('ci-runner'))!;
    assert.match(line, /created \S+, last used \S+, expires \S+/);
    assert.equal(list.stdout.includes(token), false);
    const json = await runNotifyctl(['tokens', 'list', '--json'], { env: broker.home.env });
    assert.equal(json.stdout.includes(token), false);

    const revoke = await runNotifyctl(['tokens', 'revoke', 'ci-runner'], { env: broker.home.env });
    assert.equal(revoke.code, 0, revoke.stderr);
    const refused = await agent('POST', '/v1/notifications', { title: 'After', message: 'revoke' });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: 'unauthorized' });

    const log = logText(broker);
    assert.match(log, /agent token "ci-runner" created/);
    assert.match(log, /agent token "ci-runner" revoked/);
    assert.equal(log.includes(token), false, 'the token never reaches the log');
    assert.equal(log.includes(token.slice(4, 20)), false);
  });

  it('refuses a second live token of one name and a name that is no host name', async () => {
    await createToken(broker, 'twice');
    const again = await runNotifyctl(['tokens', 'create', 'twice'], { env: broker.home.env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /a token named "twice" exists already; revoke it first/);
    const bad = await broker.request('POST', '/v1/tokens', { name: 'Bad Name' });
    assert.equal(bad.status, 400);
  });
});

describe('agent tokens: their own POST rate limit', () => {
  it('a flooding agent is held to the limit while the owner token still raises', async () => {
    const broker = await startBroker({ config: { rateLimitPerSecond: 5 } });
    try {
      const agent = as(broker, await createToken(broker, 'noisy'));
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => agent('POST', '/v1/notifications', { title: 'Spam', message: 'x' })),
      );
      assert.ok(answers.some((response) => response.status === 429));
      const owner = await broker.request('POST', '/v1/notifications', { title: 'Owner', message: 'fine' });
      assert.equal(owner.status, 201);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });
});
