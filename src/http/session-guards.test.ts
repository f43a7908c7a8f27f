import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSessions } from '../broker/web-sessions.js';
import { openDatabase, type Db } from '../store/database.js';
import { WebSessionStore } from '../store/web-session-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { bearerGuard, hostGuard, rateLimitGuard } from './guards.js';
import type { Guard } from './guard.js';

const PORT = 47998;
const TOKEN = 'a-token-of-the-right-length-0123456789';
const HOST = `127.0.0.1:${PORT}`;

/**
 * The guards with the web page's sessions (issues 21 and 29), answered in process: a real session
 * store on a real SQLite file, signed in through a one-time code as the page is.
 */
describe("request guards with the web page's session", () => {
  let app: FastifyInstance;
  let folder: string;
  let db: Db;
  let writes: WriteQueue;
  let store: WebSessionStore;
  let sessions: WebSessions;
  let now = 1_000_000;
  const signIn = async (): Promise<string> => {
    const { code } = sessions.mintLoginCode();
    return (await sessions.signIn(code, 'test browser'))!.secret;
  };
  let first: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'notify-session-guards-'));
    db = openDatabase(join(folder, 'notify.db'));
    writes = new WriteQueue(db);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    store = new WebSessionStore(db);
    sessions = new WebSessions({ store, writes, clock: () => now, token: () => TOKEN, log: quiet });
    const guards: Guard[] = [
      hostGuard(() => PORT),
      bearerGuard(() => TOKEN, sessions),
      rateLimitGuard(
        () => 2,
        () => now,
      ),
    ];
    app = Fastify();
    app.addHook('onRequest', (request, reply, done) => {
      for (const guard of guards) if (guard(request, reply)) return;
      done();
    });
    app.get('/v1/things', () => ({ things: [] }));
    app.post('/v1/things', { config: { rateLimited: true } }, () => ({ created: true }));
    app.post('/v1/token-only', { config: { credentials: 'token' } }, () => ({ code: 'minted' }));
    app.get('/v1/session-only', { config: { credentials: 'session' } }, () => ({ session: true }));
    await app.ready();
    first = await signIn();
  });
  after(async () => {
    await app.close();
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { host: HOST, ...headers } });
  const session = (secret = first) => ({ authorization: `Session ${secret}` });

  it('signs in with Authorization: Session <secret>, the scheme in any case, and refuses an unknown one', async () => {
    assert.equal((await call('GET', '/v1/things', session())).statusCode, 200);
    const spelled = { authorization: `session  ${first} ` };
    assert.equal((await call('GET', '/v1/things', spelled)).statusCode, 200, 'lower case, extra spaces');
    for (const authorization of [
      `Session ${'A'.repeat(43)}`,
      `Session ${first}x`,
      `Session ${first.slice(1)}`,
      'Session ',
      `Session ${first} ${first}`,
      `Bearer ${first}`,
      // Only the Session scheme names a session: not a token that spells it, nor a longer scheme name.
      `Bearer Session ${first}`,
      `NotSession ${first}`,
      first,
    ]) {
      const response = await call('GET', '/v1/things', { authorization });
      assert.equal(response.statusCode, 401, authorization);
      assert.equal(response.headers['www-authenticate'], 'Bearer', authorization);
      assert.deepEqual(response.json(), { error: 'unauthorized' }, authorization);
    }
  });

  it("counts a Cookie header for nothing, even one holding a live session's secret", async () => {
    for (const cookie of [`notify_session=${first}`, `theme=dark; notify_session=${first}; other=1`]) {
      now += 1000;
      for (const [method, url] of [
        ['GET', '/v1/things'],
        ['POST', '/v1/things'],
        ['GET', '/v1/session-only'],
        ['POST', '/v1/token-only'],
      ] as const) {
        const fromPage = { cookie, origin: `http://${HOST}` };
        const response = await call(method, url, fromPage);
        assert.equal(response.statusCode, 401, `${cookie}: ${method} ${url}`);
      }
    }
  });

  it('changes something with the session alone: no CSRF token, whatever the Origin', async () => {
    for (const origin of [undefined, `http://${HOST}`, 'http://evil.example', 'null']) {
      now += 1000; // a new rate-limit second for each case
      const headers = { ...session(), ...(origin !== undefined && { origin }) };
      assert.equal((await call('POST', '/v1/things', headers)).statusCode, 200, String(origin));
    }
  });

  it('keeps the token-only and session-only routes to their one way in', async () => {
    now += 1000;
    assert.equal((await call('POST', '/v1/token-only', session())).statusCode, 401, 'a session, token route');
    assert.equal(
      (await call('POST', '/v1/token-only', { authorization: `Bearer ${TOKEN}` })).statusCode,
      200,
    );
    assert.equal((await call('GET', '/v1/session-only', session())).statusCode, 200);
    const withToken = await call('GET', '/v1/session-only', { authorization: `Bearer ${TOKEN}` });
    assert.equal(withToken.statusCode, 401, 'the token for a session route');
    assert.equal(withToken.headers['www-authenticate'], 'Session');
  });

  it('counts the rate limit per session, apart from the token and from other sessions', async () => {
    now += 1000;
    const other = await signIn();
    assert.equal((await call('POST', '/v1/things', session())).statusCode, 200);
    assert.equal((await call('POST', '/v1/things', session())).statusCode, 200);
    const third = await call('POST', '/v1/things', session());
    assert.equal(third.statusCode, 429, 'the limit of 2 a second');
    assert.equal(third.headers['retry-after'], '1');
    assert.equal((await call('POST', '/v1/things', session(other))).statusCode, 200, 'another session');
    const token = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await call('POST', '/v1/things', token)).statusCode, 200, 'the token has its own count');
  });

  it('refuses a session that has ended, as a secret it never knew', async () => {
    const ending = await signIn();
    assert.equal((await call('GET', '/v1/things', session(ending))).statusCode, 200);
    now += 12 * 60 * 60 * 1000; // the idle end
    assert.equal((await call('GET', '/v1/things', session(ending))).statusCode, 401);
  });

  it('ends, at start, a session made while its secret lived in a cookie', async () => {
    const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const secret = randomBytes(32).toString('base64url');
    await writes.run(() =>
      store.insert({
        id: 'cookie-era',
        secretHash: hex(secret),
        // How the version that set the cookie fingerprinted the same token.
        tokenFingerprint: hex(`notify web session token\0${TOKEN}`),
        userAgent: null,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + 60 * 60 * 1000,
      }),
    );
    await sessions.tokenChanged();
    assert.equal(sessions.authenticate(secret), undefined);
    assert.ok(!store.list().some((stored) => stored.id === 'cookie-era'), 'removed from the database');
  });
});
