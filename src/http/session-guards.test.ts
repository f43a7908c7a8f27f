import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSessions } from '../broker/web-sessions.js';
import { openDatabase, type Db } from '../store/database.js';
import { WebSessionStore } from '../store/web-session-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { bearerGuard, hostGuard, rateLimitGuard, type Guard } from './guards.js';

const PORT = 47998;
const TOKEN = 'a-token-of-the-right-length-0123456789';
const HOST = `127.0.0.1:${PORT}`;
const ORIGIN = `http://${HOST}`;

/**
 * The guards with the web page's sessions (issue 21), answered in process: a real session store on a
 * real SQLite file, signed in through a one-time code as the page is.
 */
describe("request guards with the web page's session cookie", () => {
  let app: FastifyInstance;
  let folder: string;
  let db: Db;
  let writes: WriteQueue;
  let sessions: WebSessions;
  let now = 1_000_000;
  const signIn = async (): Promise<{ cookie: string; csrf: string }> => {
    const { code } = sessions.mintLoginCode();
    const signed = (await sessions.signIn(code, 'test browser'))!;
    return { cookie: `notify_session=${signed.secret}`, csrf: sessions.csrfTokenOf(signed.secret) };
  };
  let first: { cookie: string; csrf: string };

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'notify-session-guards-'));
    db = openDatabase(join(folder, 'notify.db'));
    writes = new WriteQueue(db);
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    sessions = new WebSessions({
      store: new WebSessionStore(db),
      writes,
      clock: () => now,
      token: () => TOKEN,
      log: quiet,
    });
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
  const fromPage = (session = first) => ({
    cookie: session.cookie,
    origin: ORIGIN,
    'x-csrf-token': session.csrf,
  });

  it('reads with the cookie alone, found among other cookies, and refuses a cookie it does not know', async () => {
    assert.equal((await call('GET', '/v1/things', { cookie: first.cookie })).statusCode, 200);
    const among = `theme=dark; ${first.cookie} ; other=1`;
    assert.equal((await call('GET', '/v1/things', { cookie: among })).statusCode, 200, among);
    const value = first.cookie.slice('notify_session='.length);
    for (const cookie of [
      `x${first.cookie}`,
      `notify_session=${'A'.repeat(43)}`,
      `notify_session=${value}x`,
      'notify_session=',
      `other=${value}`,
    ]) {
      const response = await call('GET', '/v1/things', { cookie });
      assert.equal(response.statusCode, 401, cookie);
      assert.equal(response.headers['www-authenticate'], 'Bearer', cookie);
      assert.deepEqual(response.json(), { error: 'unauthorized' }, cookie);
    }
  });

  it('changes something from a cookie only with its own Origin and CSRF token', async () => {
    const other = await signIn();
    const cases: { name: string; headers: Record<string, string>; status: number; error?: RegExp }[] = [
      { name: 'from the page', headers: fromPage(), status: 200 },
      {
        name: 'Origin of the Host as sent, in lower case',
        headers: { ...fromPage(), host: `LOCALHOST:${PORT}`, origin: `http://localhost:${PORT}` },
        status: 200,
      },
      {
        name: 'no Origin',
        headers: { cookie: first.cookie, 'x-csrf-token': first.csrf },
        status: 403,
        error: /its Origin header must be http:\/\/127\.0\.0\.1:47998$/,
      },
      {
        name: 'another site',
        headers: { ...fromPage(), origin: 'http://evil.example' },
        status: 403,
        error: /Origin/,
      },
      {
        name: 'another port',
        headers: { ...fromPage(), origin: `http://127.0.0.1:${PORT + 1}` },
        status: 403,
      },
      { name: 'https of the same host', headers: { ...fromPage(), origin: `https://${HOST}` }, status: 403 },
      {
        name: 'no CSRF token',
        headers: { cookie: first.cookie, origin: ORIGIN },
        status: 403,
        error: /needs the X-CSRF-Token header with the csrfToken of GET \/v1\/web\/session$/,
      },
      {
        name: "another session's token",
        headers: { ...fromPage(), 'x-csrf-token': other.csrf },
        status: 403,
      },
      { name: 'an empty token', headers: { ...fromPage(), 'x-csrf-token': '' }, status: 403, error: /CSRF/ },
    ];
    for (const { name, headers, status, error } of cases) {
      now += 1000; // a new rate-limit second for each case
      const response = await call('POST', '/v1/things', headers);
      assert.equal(response.statusCode, status, name);
      if (error) assert.match((response.json() as { error: string }).error, error, name);
    }
  });

  it('keeps the token-only and session-only routes to their one way in', async () => {
    now += 1000;
    assert.equal(
      (await call('POST', '/v1/token-only', fromPage())).statusCode,
      401,
      'a cookie for a token route',
    );
    assert.equal(
      (await call('POST', '/v1/token-only', { authorization: `Bearer ${TOKEN}` })).statusCode,
      200,
    );
    assert.equal((await call('GET', '/v1/session-only', { cookie: first.cookie })).statusCode, 200);
    const withToken = await call('GET', '/v1/session-only', { authorization: `Bearer ${TOKEN}` });
    assert.equal(withToken.statusCode, 401, 'the token for a session route');
  });

  it('judges a request with an Authorization header by its token, whatever cookie comes with it', async () => {
    const wrong = await call('GET', '/v1/things', { cookie: first.cookie, authorization: 'Bearer wrong' });
    assert.equal(wrong.statusCode, 401);
    const right = await call('GET', '/v1/things', {
      cookie: 'notify_session=nothing',
      authorization: `Bearer ${TOKEN}`,
    });
    assert.equal(right.statusCode, 200);
  });

  it('counts the rate limit per session, apart from the token and from other sessions', async () => {
    now += 1000;
    const other = await signIn();
    assert.equal((await call('POST', '/v1/things', fromPage())).statusCode, 200);
    assert.equal((await call('POST', '/v1/things', fromPage())).statusCode, 200);
    const third = await call('POST', '/v1/things', fromPage());
    assert.equal(third.statusCode, 429, 'the limit of 2 a second');
    assert.equal(third.headers['retry-after'], '1');
    assert.equal((await call('POST', '/v1/things', fromPage(other))).statusCode, 200, 'another session');
    const token = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await call('POST', '/v1/things', token)).statusCode, 200, 'the token has its own count');
  });

  it('refuses a session that has ended, as a cookie it never knew', async () => {
    const ending = await signIn();
    assert.equal((await call('GET', '/v1/things', { cookie: ending.cookie })).statusCode, 200);
    now += 12 * 60 * 60 * 1000; // the idle end
    assert.equal((await call('GET', '/v1/things', { cookie: ending.cookie })).statusCode, 401);
  });
});
