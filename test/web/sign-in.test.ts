import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { httpRequest } from '../support/http-request.js';
import {
  replaceConfigFile,
  readConfigFile,
  startBroker,
  type BrokerProcess,
} from '../support/broker-process.js';
import { waitFor, within } from '../support/wait-for.js';
import {
  asPage,
  loginUrl,
  secretOf,
  sessionHeader,
  signIn,
  startClockedBroker,
  visit,
  type ClockedBroker,
} from '../support/web-session.js';

const LINK_USED_UP = 'This sign-in link has expired or was already used. Run `notifyctl open` for a new one.';
const HOUR = 60 * 60 * 1000;

function useClockedBroker(): ClockedBroker {
  const broker = {} as ClockedBroker;
  before(async () => {
    Object.assign(broker, await startClockedBroker());
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    rmSync(broker.clockFile, { force: true });
  });
  return broker;
}

describe('one-time sign-in links', () => {
  const broker = useClockedBroker();

  it('are made with the token and point at /login on the broker', async () => {
    const response = await broker.request('POST', '/v1/web/login-codes');
    assert.equal(response.status, 201);
    const body = (await response.json()) as { url: string; expiresAt: string };
    assert.match(
      body.url,
      new RegExp(`^http://127\\.0\\.0\\.1:${broker.port}/login\\?code=[A-Za-z0-9_-]{43}$`),
    );
    const lifetime = Date.parse(body.expiresAt) - Date.now();
    assert.ok(lifetime > 55_000 && lifetime <= 60_000, `expires in ${lifetime} ms`);
  });

  it("sign in once: a 303 to the page with the session's secret in the fragment, and no cookie", async () => {
    const url = await loginUrl(broker);
    const first = await visit(url);
    assert.equal(first.status, 303);
    assert.match(first.headers.get('location')!, /^\/#s=[A-Za-z0-9_-]{43}$/);
    assert.equal(first.headers.get('set-cookie'), null);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.headers.get('referrer-policy'), 'no-referrer');
    assert.equal((await asPage(broker, secretOf(first), 'GET', '/v1/web/session')).status, 200);

    const again = await visit(url);
    assert.equal(again.status, 401);
    assert.equal(again.headers.get('set-cookie'), null);
    assert.match(again.headers.get('content-type')!, /^text\/html/);
    const page = await again.text();
    // The page's own look and the command as code, never literal backticks.
    assert.ok(page.includes(`<p>${LINK_USED_UP.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`), page);
    assert.match(page, /<link rel="stylesheet" href="\/assets\/app-[A-Za-z0-9_-]+\.css">/);
    const stylesheet = await fetch(`${broker.baseUrl}${/href="([^"]+\.css)"/.exec(page)![1]}`);
    assert.equal(stylesheet.status, 200);
  });

  it('work for 60 seconds and not after', async () => {
    const early = await loginUrl(broker);
    const late = await loginUrl(broker);
    broker.advance(59_000);
    assert.equal((await visit(early)).status, 303, 'at 59 s');
    broker.advance(1_000);
    assert.equal((await visit(late)).status, 401, 'at 60 s');
  });

  it('refuse codes that were never made, and a link without a code', async () => {
    for (const path of [
      '/login?code=' + 'A'.repeat(43),
      '/login?code=short',
      '/login',
      '/login?code=a&code=b',
    ]) {
      const response = await visit(`${broker.baseUrl}${path}`);
      assert.equal(response.status, 401, path);
      assert.ok((await response.text()).includes('This sign-in link has expired or was already used.'), path);
    }
  });

  it('are not used up by a HEAD request (a link checker)', async () => {
    const url = await loginUrl(broker);
    const head = await fetch(url, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 404);
    assert.equal((await visit(url)).status, 303);
  });

  it('are made only with the token: neither a session nor nothing makes one', async () => {
    const secret = await signIn(broker);
    assert.equal((await asPage(broker, secret, 'POST', '/v1/web/login-codes')).status, 401);
    assert.equal((await fetch(`${broker.baseUrl}/v1/web/login-codes`, { method: 'POST' })).status, 401);
  });
});

describe("the page's session (Authorization: Session)", () => {
  const broker = useClockedBroker();

  it('is accepted by the API wherever the token is, the event stream included', async () => {
    const secret = await signIn(broker);
    await broker.request('POST', '/v1/notifications', { title: 'seen by the page', message: 'm' });
    const list = await asPage(broker, secret, 'GET', '/v1/notifications');
    assert.equal(list.status, 200);
    assert.equal(((await list.json()) as { title: string }[])[0]!.title, 'seen by the page');
    for (const path of ['/v1/health', '/v1/settings', '/v1/providers', '/v1/outbox', '/v1/openapi.json'])
      assert.equal((await asPage(broker, secret, 'GET', path)).status, 200, path);

    const abort = new AbortController();
    const stream = await fetch(`${broker.baseUrl}/v1/stream`, {
      headers: sessionHeader(secret),
      signal: abort.signal,
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type')!, /^text\/event-stream/);
    assert.match(stream.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    abort.abort();
  });

  it('a stream opened with the session ends when the session is revoked, before the next event', async () => {
    const secret = await signIn(broker);
    const { id } = (await (await asPage(broker, secret, 'GET', '/v1/web/session')).json()) as { id: string };
    const stream = await fetch(`${broker.baseUrl}/v1/stream`, { headers: sessionHeader(secret) });
    const reader = stream.body!.getReader();
    let text = '';
    const ended = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += Buffer.from(value).toString('utf8');
      }
    })();
    await waitFor(() => text.includes('retry:'), 'the stream to start');
    await broker.request('POST', '/v1/notifications', { title: 'seen while signed in', message: 'm' });
    await waitFor(() => text.includes('seen while signed in'), 'the first event');
    assert.equal((await broker.request('DELETE', `/v1/web/sessions/${id}`)).status, 204);
    await broker.request('POST', '/v1/notifications', { title: 'after the sign-out', message: 'm' });
    const all = await within(ended, 'the stream of the revoked session to end');
    assert.ok(!all.includes('after the sign-out'), all);
  });

  it('GET /v1/web/session answers the session, to the session only: no CSRF token any more', async () => {
    const secret = await signIn(broker);
    const response = await asPage(broker, secret, 'GET', '/v1/web/session');
    assert.equal(response.status, 200);
    const session = (await response.json()) as Record<string, string>;
    assert.deepEqual(Object.keys(session).sort(), ['createdAt', 'expiresAt', 'id', 'idleExpiresAt']);
    assert.equal(Date.parse(session['expiresAt']!) - Date.parse(session['createdAt']!), 7 * 24 * HOUR);
    assert.equal(Date.parse(session['idleExpiresAt']!) - Date.parse(session['createdAt']!), 12 * HOUR);

    for (const [name, headers] of [
      ['the token', { authorization: `Bearer ${broker.token}` }],
      ['nothing', {}],
      ['an unknown secret', sessionHeader('x'.repeat(43))],
      ['the secret as a cookie', { cookie: `notify_session=${secret}` }],
    ] as const) {
      const refused = await fetch(`${broker.baseUrl}/v1/web/session`, { headers });
      assert.equal(refused.status, 401, name);
      assert.equal(refused.headers.get('www-authenticate'), 'Session', name);
      assert.deepEqual(await refused.json(), { error: 'unauthorized' }, name);
    }
  });

  it('changes something with the session header alone, via 127.0.0.1 or localhost, from any Origin', async () => {
    const secret = await signIn(broker);
    const body = { title: 'from the page', message: 'm' };
    assert.equal((await asPage(broker, secret, 'POST', '/v1/notifications', { body })).status, 201);
    for (const host of [`localhost:${broker.port}`, `127.0.0.1:${broker.port}`]) {
      const response = await httpRequest({
        port: broker.port,
        method: 'POST',
        path: '/v1/notifications',
        headers: {
          host,
          origin: 'http://elsewhere.example',
          ...sessionHeader(secret),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ ...body, title: `via ${host}` }),
      });
      assert.equal(response.status, 201, host);
    }
  });

  it('ends after 12 hours unused, and stays while used', async () => {
    const idle = await signIn(broker);
    const used = await signIn(broker);
    broker.advance(11 * HOUR);
    assert.equal((await asPage(broker, used, 'GET', '/v1/health')).status, 200);
    broker.advance(1 * HOUR);
    assert.equal((await asPage(broker, idle, 'GET', '/v1/health')).status, 401, 'idle 12 h');
    assert.equal((await asPage(broker, used, 'GET', '/v1/health')).status, 200, 'used 1 h ago');
  });

  it('ends 7 days after sign-in however much it is used', async () => {
    const secret = await signIn(broker);
    for (let hours = 10; hours < 7 * 24; hours += 10) {
      broker.advance(10 * HOUR);
      assert.equal((await asPage(broker, secret, 'GET', '/v1/health')).status, 200, `after ${hours} h`);
    }
    broker.advance(7 * 24 * HOUR - 160 * HOUR);
    assert.equal((await asPage(broker, secret, 'GET', '/v1/health')).status, 401, 'after 7 days');
  });
});

describe('no CORS, and the security headers', () => {
  const broker = useClockedBroker();

  it('never answers with Access-Control headers, preflight or not', async () => {
    const secret = await signIn(broker);
    const answers = [
      await fetch(`${broker.baseUrl}/v1/notifications`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      }),
      await asPage(broker, secret, 'GET', '/v1/notifications', {
        headers: { origin: 'http://evil.example' },
      }),
      await broker.request('GET', '/v1/notifications', undefined, { origin: 'http://evil.example' }),
      await fetch(`${broker.baseUrl}/`, { headers: { origin: 'http://evil.example' } }),
    ];
    for (const response of answers) {
      const names = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
      assert.deepEqual(names, [], `${response.url} ${response.status}`);
    }
  });

  it('every answer carries the CSP, nosniff, no-referrer and DENY', async () => {
    const secret = await signIn(broker);
    const responses = await Promise.all([
      fetch(`${broker.baseUrl}/`),
      fetch(`${broker.baseUrl}/index.html`),
      fetch(`${broker.baseUrl}/assets/app.js`),
      visit(`${broker.baseUrl}/login?code=none`),
      visit(await loginUrl(broker)),
      fetch(`${broker.baseUrl}/health`),
      broker.request('GET', '/v1/health'),
      fetch(`${broker.baseUrl}/v1/health`),
      broker.request('GET', '/v1/no-such-thing'),
      asPage(broker, secret, 'POST', '/v1/notifications', { body: {} }),
      broker.request('POST', '/v1/notifications', '{not json'),
    ]);
    for (const response of responses) {
      const where = `${response.url} ${response.status}`;
      assert.equal(
        response.headers.get('content-security-policy'),
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        where,
      );
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', where);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', where);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', where);
    }
  });

  it('the Host check covers the page and the sign-in link too', async () => {
    for (const path of ['/', '/assets/app.js', `/login?code=${'A'.repeat(43)}`]) {
      const response = await httpRequest({
        port: broker.port,
        method: 'GET',
        path,
        headers: { host: `evil.example:${broker.port}` },
      });
      assert.equal(response.status, 421, path);
    }
  });
});

describe('listing and revoking sessions', () => {
  const broker = useClockedBroker();

  it('lists live sessions newest first, marking the asking one', async () => {
    const first = await signIn(broker);
    broker.advance(1000);
    const second = await signIn(broker);
    const listed = (await (await asPage(broker, second, 'GET', '/v1/web/sessions')).json()) as {
      sessions: { id: string; current: boolean; userAgent: string | null }[];
    };
    assert.equal(listed.sessions.length, 2);
    assert.deepEqual(
      listed.sessions.map((session) => session.current),
      [true, false],
    );
    const byToken = (await (await broker.request('GET', '/v1/web/sessions')).json()) as {
      sessions: { id: string; current: boolean }[];
    };
    assert.deepEqual(
      byToken.sessions.map((session) => [session.id, session.current]),
      listed.sessions.map((session) => [session.id, false]),
    );
    const firstId = listed.sessions[1]!.id;
    assert.equal((await broker.request('DELETE', `/v1/web/sessions/${firstId}`)).status, 204);
    assert.equal((await asPage(broker, first, 'GET', '/v1/health')).status, 401, 'revoked');
    assert.equal((await asPage(broker, second, 'GET', '/v1/health')).status, 200, 'the other stays');
    const missing = await broker.request('DELETE', `/v1/web/sessions/${firstId}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'session not found' });
  });

  it('logout ends the own session, and takes only the session', async () => {
    const secret = await signIn(broker);
    const byToken = await broker.request('POST', '/v1/web/logout');
    assert.equal(byToken.status, 401, 'the token has no session to end');
    const response = await asPage(broker, secret, 'POST', '/v1/web/logout');
    assert.equal(response.status, 204);
    assert.equal((await asPage(broker, secret, 'GET', '/v1/health')).status, 401);
  });

  it('revoking all ends every session', async () => {
    const secrets = [await signIn(broker), await signIn(broker)];
    const response = await broker.request('DELETE', '/v1/web/sessions');
    assert.equal(response.status, 200);
    const { revoked } = (await response.json()) as { revoked: number };
    assert.ok(revoked >= 2, `revoked ${revoked}`);
    for (const secret of secrets)
      assert.equal((await asPage(broker, secret, 'GET', '/v1/health')).status, 401);
    assert.deepEqual(await (await broker.request('GET', '/v1/web/sessions')).json(), { sessions: [] });
  });

  it('revoking all also stops the sign-in links made before it; a link made after works', async () => {
    const before = await loginUrl(broker);
    assert.equal((await broker.request('DELETE', '/v1/web/sessions')).status, 200);
    const refused = await visit(before);
    assert.equal(refused.status, 401, 'a link made before signing out everywhere');
    assert.ok((await refused.text()).includes('This sign-in link has expired or was already used.'));
    assert.deepEqual(await (await broker.request('GET', '/v1/web/sessions')).json(), { sessions: [] });
    assert.equal((await visit(await loginUrl(broker))).status, 303);
  });
});

describe('sessions across restarts and token changes', () => {
  it('survive a restart; a new token, while running or while stopped, ends them all', async () => {
    let broker: BrokerProcess = await startClockedBroker();
    const { home, port } = broker;
    try {
      const kept = await signIn(broker);
      const unusedLink = await loginUrl(broker);
      await broker.stop();
      broker = await startClockedBroker({ home, port });
      assert.equal((await asPage(broker, kept, 'GET', '/v1/health')).status, 200, 'after a restart');
      assert.equal((await visit(unusedLink)).status, 401, 'links live in memory only');

      const link = await loginUrl(broker);
      replaceConfigFile(home, { ...readConfigFile(home), authToken: 'a-brand-new-token-of-the-person' });
      await waitFor(
        async () => (await broker.request('GET', '/v1/health')).status === 401,
        'the broker to take the new token',
      );
      await waitFor(
        async () => (await asPage(broker, kept, 'GET', '/v1/health')).status === 401,
        'the session of the old token to end',
      );
      assert.equal((await visit(link)).status, 401, 'a link made under the old token');
      const fresh = await fetch(`${broker.baseUrl}/v1/web/login-codes`, {
        method: 'POST',
        headers: { authorization: 'Bearer a-brand-new-token-of-the-person' },
      });
      const secret = secretOf(await visit(((await fresh.json()) as { url: string }).url));
      assert.equal((await asPage(broker, secret, 'GET', '/v1/health')).status, 200);

      await broker.stop();
      replaceConfigFile(home, { ...readConfigFile(home), authToken: 'yet-another-token-while-stopped' });
      broker = await startBroker({ home, port });
      assert.equal(
        (await asPage(broker, secret, 'GET', '/v1/health')).status,
        401,
        'token changed while stopped',
      );
      assert.deepEqual(await (await broker.request('GET', '/v1/web/sessions')).json(), { sessions: [] });

      // An older config.json put back (a backup, say) does not bring back the sessions of its token,
      // even one never used while another token was in force.
      const beforeBackup = await signIn(broker);
      await broker.stop();
      const backup = readConfigFile(home);
      replaceConfigFile(home, { ...backup, authToken: 'a-token-for-a-while' });
      broker = await startBroker({ home, port });
      await broker.stop();
      replaceConfigFile(home, backup);
      broker = await startBroker({ home, port });
      assert.equal(
        (await asPage(broker, beforeBackup, 'GET', '/v1/health')).status,
        401,
        'a session of a token that was replaced once stays ended',
      );
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
