import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { httpRequest } from '../support/http-request.js';

describe('authentication', () => {
  const broker = useBroker();

  const ROUTES: [method: string, path: string][] = [
    ['GET', '/v1/health'],
    ['GET', '/v1/notifications'],
    ['POST', '/v1/notifications'],
    ['GET', '/v1/notifications/any'],
    ['PATCH', '/v1/notifications/any'],
    ['POST', '/v1/notifications/any/dismiss'],
  ];
  const bad = (token: string) =>
    [
      ['no Authorization header', undefined],
      ['a wrong token', `Bearer ${token}x`],
      ['a token prefix', `Bearer ${token.slice(0, 10)}`],
      ['a Basic scheme', `Basic ${token}`],
      ['an empty bearer', 'Bearer '],
      ['junk after the token', `Bearer ${token} extra`],
    ] as const;

  for (const [method, path] of ROUTES) {
    it(`answers ${method} ${path} with 401 unauthorized for every bad credential`, async () => {
      for (const [name, authorization] of bad(broker.token)) {
        const response = await fetch(`${broker.baseUrl}${path}`, {
          method,
          headers: authorization === undefined ? {} : { authorization },
          ...(method !== 'GET' && { body: '{"title":"t","message":"m","status":"resolved"}' }),
        });
        assert.equal(response.status, 401, name);
        assert.deepEqual(await response.json(), { error: 'unauthorized' }, name);
      }
    });
  }

  it('asks for the token on unknown /v1 paths too, and answers 404 once it is given', async () => {
    const anonymous = await fetch(`${broker.baseUrl}/v1/no-such-thing`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(await anonymous.json(), { error: 'unauthorized' });
    const known = await broker.request('GET', '/v1/no-such-thing');
    assert.equal(known.status, 404);
    assert.deepEqual(await known.json(), { error: 'no such endpoint: GET /v1/no-such-thing' });
  });

  it('answers an id of any length with 404 notification not found', async () => {
    const response = await broker.request('GET', `/v1/notifications/${'x'.repeat(500)}`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), { error: 'notification not found' });
  });

  it('accepts the bearer scheme in any case', async () => {
    const response = await fetch(`${broker.baseUrl}/v1/health`, {
      headers: { authorization: `bearer ${broker.token}` },
    });
    assert.equal(response.status, 200);
  });

  it('serves GET /health without a token', async () => {
    const response = await fetch(`${broker.baseUrl}/health`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  it('reports every field of the health response', async () => {
    const response = await broker.request('GET', '/v1/health');
    const health = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(health).sort(), [
      'activeCount',
      'apiVersion',
      'pid',
      'serverTimeUtc',
      'status',
      'uptimeSeconds',
      'version',
    ]);
    assert.equal(health['status'], 'ok');
    assert.equal(health['apiVersion'], 'v1');
    assert.equal(health['pid'], broker.child.pid);
    assert.match(health['version'] as string, /^\d+\.\d+\.\d+/);
    assert.equal(typeof health['uptimeSeconds'], 'number');
    assert.match(health['serverTimeUtc'] as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('never sends CORS headers, not even to a preflight', async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const response = await httpRequest({
        port: broker.port,
        method,
        path: '/v1/notifications',
        headers: {
          host: `127.0.0.1:${broker.port}`,
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          authorization: `Bearer ${broker.token}`,
        },
      });
      const cors = Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
      assert.deepEqual(cors, [], method);
    }
  });
});

describe('Host header guard (DNS rebinding)', () => {
  const broker = useBroker();

  const hosts = (port: number): [host: string, allowed: boolean][] => [
    [`127.0.0.1:${port}`, true],
    [`localhost:${port}`, true],
    [`LOCALHOST:${port}`, true],
    [`[::1]:${port}`, true],
    ['evil.example', false],
    [`evil.example:${port}`, false],
    ['127.0.0.1', false],
    [`127.0.0.1:${port + 1}`, false],
    [`localhost.evil.example:${port}`, false],
    [`0.0.0.0:${port}`, false],
  ];

  it('serves loopback hosts with the broker port and refuses every other Host with 421', async () => {
    for (const [host, allowed] of hosts(broker.port)) {
      for (const path of ['/health', '/v1/notifications']) {
        const response = await httpRequest({
          port: broker.port,
          method: 'GET',
          path,
          headers: { host, authorization: `Bearer ${broker.token}` },
        });
        if (allowed) {
          assert.equal(response.status, 200, host);
        } else {
          assert.equal(response.status, 421, host);
          const { error } = JSON.parse(response.body) as { error: string };
          assert.match(error, /DNS rebinding/);
        }
      }
    }
  });

  it('checks the Host before the token, so a rebinding page learns nothing', async () => {
    const response = await httpRequest({
      port: broker.port,
      method: 'GET',
      path: '/v1/health',
      headers: { host: 'evil.example' },
    });
    assert.equal(response.status, 421);
  });
});

describe('request limits', () => {
  const broker = useBroker({ config: { maxRequestBodyBytes: 1024, rateLimitPerSecond: 5 } });

  const headers = () => ({ host: `127.0.0.1:${broker.port}`, authorization: `Bearer ${broker.token}` });
  const bodyOf = (size: number) =>
    JSON.stringify({ title: 't', message: 'x'.repeat(size - 30) }).padEnd(size, ' ');
  const count = async () =>
    ((await (await broker.request('GET', '/v1/notifications?limit=500')).json()) as unknown[]).length;

  it('answers a declared body over maxRequestBodyBytes with 413 and no body', async () => {
    const before = await count();
    const response = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/v1/notifications',
      headers: headers(),
      body: bodyOf(1025),
    });
    assert.equal(response.status, 413);
    assert.equal(response.body, '');
    assert.equal(await count(), before);
  });

  it('answers a chunked body over the limit with 413 too', async () => {
    const response = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/v1/notifications',
      headers: { ...headers(), 'transfer-encoding': 'chunked' },
      body: bodyOf(5000),
      chunked: true,
    }).catch((error: Error) => ({ status: 413, body: '', closed: error.message }));
    assert.equal(response.status, 413);
    assert.equal(response.body, '');
  });

  it('applies the body limit to every route, even unauthenticated ones', async () => {
    const response = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/health',
      headers: { host: `127.0.0.1:${broker.port}` },
      body: bodyOf(2048),
    });
    assert.equal(response.status, 413);
  });

  it('accepts a body of exactly maxRequestBodyBytes', async () => {
    await waitForFreshSecond();
    const response = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/v1/notifications',
      headers: headers(),
      body: bodyOf(1024),
    });
    assert.equal(response.status, 201);
  });

  it('limits POSTs per token per second with 429, "rate limit exceeded" and Retry-After: 1', async () => {
    await waitForFreshSecond();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        httpRequest({
          port: broker.port,
          method: 'POST',
          path: '/v1/notifications',
          headers: headers(),
          body: '{"title":"t","message":"m"}',
        }),
      ),
    );
    const limited = responses.filter((r) => r.status === 429);
    assert.equal(responses.filter((r) => r.status === 201).length, 5);
    assert.equal(limited.length, 3);
    for (const response of limited) {
      assert.equal(response.headers['retry-after'], '1');
      assert.deepEqual(JSON.parse(response.body), { error: 'rate limit exceeded' });
    }
    await waitForFreshSecond();
    const next = await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' });
    assert.equal(next.status, 201, 'a new window starts every second');
  });

  it('keeps one counter per token however the Authorization header spells it', async () => {
    await waitForFreshSecond();
    const spellings = [
      `Bearer ${broker.token}`,
      `bearer ${broker.token}`,
      `Bearer  ${broker.token}`,
      `BEARER ${broker.token} `,
    ];
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        httpRequest({
          port: broker.port,
          method: 'POST',
          path: '/v1/notifications',
          headers: { host: `127.0.0.1:${broker.port}`, authorization: spellings[i % spellings.length]! },
          body: '{"title":"t","message":"m"}',
        }),
      ),
    );
    assert.equal(responses.filter((r) => r.status === 201).length, 5);
    assert.equal(responses.filter((r) => r.status === 429).length, 3);
  });

  it('counts POST /dismiss against the limit but never GET or PATCH', async () => {
    await waitForFreshSecond();
    const created = (await (
      await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' })
    ).json()) as { id: string };
    await waitForFreshSecond();
    const unlimited = await Promise.all([
      ...Array.from({ length: 10 }, () => broker.request('GET', '/v1/notifications?limit=1')),
      ...Array.from({ length: 10 }, () =>
        broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'active' }),
      ),
    ]);
    assert.deepEqual(new Set(unlimited.map((r) => r.status)), new Set([200]));
    const dismissals = await Promise.all(
      Array.from({ length: 8 }, () => broker.request('POST', `/v1/notifications/${created.id}/dismiss`)),
    );
    assert.equal(dismissals.filter((r) => r.status === 429).length, 3);
  });
});

/** Starts a test right after a second boundary, so a burst stays inside one rate-limit window. */
async function waitForFreshSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}
