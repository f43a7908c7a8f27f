import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { failureOf } from './errors.js';
import { bearerGuard, declaredLengthGuard, hostGuard, rateLimitGuard } from './guards.js';
import type { Guard } from './guard.js';

const PORT = 47999;
const TOKEN = 'a-token-of-the-right-length-0123456789';
const HOST = `127.0.0.1:${PORT}`;

/**
 * The guards in front of three routes of a real Fastify, answered in process (inject): every case of
 * each guard, where the broker tests reach them only through a child process.
 */
describe('request guards', () => {
  let app: FastifyInstance;
  let token = TOKEN;
  let now = 5_000;
  /** What each refused request's log line says, as the broker logs it (server.ts, onResponse). */
  const logged: string[] = [];

  before(async () => {
    const guards: Guard[] = [
      hostGuard(() => PORT),
      declaredLengthGuard(() => 100),
      bearerGuard(() => token),
      rateLimitGuard(
        () => 3,
        () => now,
      ),
    ];
    // As the broker's server: a request without Host reaches the host guard.
    app = Fastify({ http: { requireHostHeader: false } });
    app.addHook('onRequest', (request, reply, done) => {
      for (const guard of guards) if (guard(request, reply)) return;
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      if (reply.statusCode >= 400) logged.push(`${reply.statusCode} ${failureOf(request)}`);
      done();
    });
    app.get('/health', () => ({ status: 'ok' }));
    app.get('/v1/open', { config: { auth: false } }, () => ({ open: true }));
    app.get('/v1/things', () => ({ things: [] }));
    app.post('/v1/things', { config: { rateLimited: true } }, () => ({ created: true }));
    app.get('/v1/sounds', { config: { rawBodyLimit: 1000 } }, () => ({ sounds: [] }));
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => app.close());

  const call = (
    url: string,
    headers: Record<string, string | string[]> = {},
    method: 'GET' | 'POST' = 'GET',
  ) => app.inject({ method, url, headers: { host: HOST, ...headers } });
  const bearer = (value = TOKEN) => ({ authorization: `Bearer ${value}` });

  it('accepts the three loopback spellings of its own port in any case, and refuses every other Host', async () => {
    for (const host of [HOST, `LOCALHOST:${PORT}`, `[::1]:${PORT}`]) {
      assert.equal((await call('/health', { host })).statusCode, 200, host);
    }
    for (const host of ['evil.example', `127.0.0.1:${PORT + 1}`, `evil.example:${PORT}`, '127.0.0.1']) {
      const response = await call('/health', { host });
      assert.equal(response.statusCode, 421, host);
      assert.deepEqual(response.json(), {
        error: `Host header must be 127.0.0.1:${PORT}, localhost:${PORT} or [::1]:${PORT}; other hosts are refused to prevent DNS rebinding`,
      });
    }
  });

  it('refuses a request without a Host header, as one from another host', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      // HTTP/1.0 needs no Host header.
      socket.end('GET /health HTTP/1.0\r\n\r\n');
    });
    assert.match(answer, /^HTTP\/1\.1 421 /);
    assert.ok(
      answer.endsWith(
        `{"error":"Host header must be 127.0.0.1:${PORT}, localhost:${PORT} or [::1]:${PORT}; other hosts are refused to prevent DNS rebinding"}\n`,
      ),
      answer,
    );
  });

  it('refuses a declared length above the limit with an empty 413, and allows up to it', async () => {
    logged.length = 0;
    const over = await call('/health', { 'content-length': '101' });
    assert.deepEqual([over.statusCode, over.body], [413, '']);
    assert.deepEqual(logged, ['413 request body too large'], 'the log says why, as the answer cannot');
    assert.equal((await call('/health', { 'content-length': '100' })).statusCode, 200);
    const raw = await call('/v1/sounds', { ...bearer(), 'content-length': '1000' });
    assert.equal(raw.statusCode, 200, 'a route with its own raw body limit');
    assert.equal((await call('/v1/sounds', { ...bearer(), 'content-length': '1001' })).statusCode, 413);
  });

  it('asks for the bearer token under /v1/ and on unknown /v1/ paths, but not where a route says so', async () => {
    assert.equal((await call('/health')).statusCode, 200);
    assert.equal((await call('/v1/open')).statusCode, 200);
    assert.equal((await call('/nowhere')).statusCode, 404);
    for (const url of ['/v1/things', '/v1/nowhere']) {
      const response = await call(url);
      assert.equal(response.statusCode, 401, url);
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(response.json(), { error: 'unauthorized' });
    }
    assert.equal((await call('/v1/nowhere', bearer())).statusCode, 404);
  });

  it('accepts the token in the scheme of any case with any spaces around it, and nothing else', async () => {
    for (const authorization of [
      `Bearer ${TOKEN}`,
      `bearer ${TOKEN}`,
      `BEARER   ${TOKEN}`,
      `Bearer ${TOKEN}  `,
      `Bearer\t${TOKEN}`,
    ]) {
      assert.equal((await call('/v1/things', { authorization })).statusCode, 200, authorization);
    }
    for (const authorization of [
      `Bearer ${TOKEN} extra`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${TOKEN}`,
      `xBearer ${TOKEN}`,
      `Bearer${TOKEN}`,
      TOKEN,
      'Bearer ',
    ]) {
      assert.equal((await call('/v1/things', { authorization })).statusCode, 401, authorization);
    }
  });

  it('refuses two Authorization headers, even both right, and counts no other header as one', async () => {
    const response = await call('/v1/things', { authorization: [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`] });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: 'only one Authorization header is allowed' });
    // Cache-Control has as many letters as Authorization: it is no second one.
    const alongside = await call('/v1/things', { ...bearer(), 'cache-control': 'no-cache' });
    assert.equal(alongside.statusCode, 200);
  });

  it('follows a changed token at once, and accepts no token at all while it is empty', async () => {
    token = 'the-next-token-of-the-right-length-0123';
    try {
      assert.equal((await call('/v1/things', bearer())).statusCode, 401, 'the old token');
      assert.equal((await call('/v1/things', bearer(token))).statusCode, 200, 'the new token');
      token = '';
      assert.equal((await call('/v1/things', { authorization: 'Bearer ' })).statusCode, 401);
    } finally {
      token = TOKEN;
    }
  });

  it('lets through as many rate-limited requests a second as the limit says, then 429 with Retry-After', async () => {
    now = 10_000;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('/v1/things', bearer(), 'POST')).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const refused = await call('/v1/things', bearer(), 'POST');
    assert.equal(refused.headers['retry-after'], '1');
    assert.deepEqual(refused.json(), { error: 'rate limit exceeded' });
    assert.equal((await call('/v1/things', bearer())).statusCode, 200, 'a GET is not limited');
    now = 10_999;
    assert.equal((await call('/v1/things', bearer(), 'POST')).statusCode, 429, 'the same second');
    now = 11_000;
    assert.equal((await call('/v1/things', bearer(), 'POST')).statusCode, 200, 'a new second');
  });
});
