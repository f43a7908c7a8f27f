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
import { waitFor } from '../support/wait-for.js';
import {
  asPage,
  loginUrl,
  pageHeaders,
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

  it('sign in once: a 303 to the page with an HttpOnly, SameSite=Strict cookie for /', async () => {
    const url = await loginUrl(broker);
    const first = await visit(url);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), '/');
    const cookie = first.headers.get('set-cookie')!;
    assert.match(cookie, /^notify_session=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/'])
      assert.ok(cookie.split('; ').includes(attribute), `${attribute} in ${cookie}`);
    assert.equal(first.headers.get('cache-control'), 'no-store');

    const again = await visit(url);
    assert.equal(again.status, 401);
    assert.equal(again.headers.get('set-cookie'), null);
    assert.match(again.headers.get('content-type')!, /^text\/html/);
    assert.ok((await again.text()).includes(`<p>${LINK_USED_UP.replaceAll('`', '`')}</p>`));
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
    const cookie = await signIn(broker);
    const headers = await pageHeaders(broker, cookie);
    assert.equal((await asPage(broker, cookie, 'POST', '/v1/web/login-codes', { headers })).status, 401);
    assert.equal((await fetch(`${broker.baseUrl}/v1/web/login-codes`, { method: 'POST' })).status, 401);
  });
});

describe('the session cookie', () => {
  const broker = useClockedBroker();

  it('is accepted by the API wherever the token is, the event stream included', async () => {
    const cookie = await signIn(broker);
    await broker.request('POST', '/v1/notifications', { title: 'seen by the page', message: 'm' });
    const list = await asPage(broker, cookie, 'GET', '/v1/notifications');
    assert.equal(list.status, 200);
    assert.equal(((await list.json()) as { title: string }[])[0]!.title, 'seen by the page');
    for (const path of ['/v1/health', '/v1/settings', '/v1/providers', '/v1/outbox', '/v1/openapi.json'])
      assert.equal((await asPage(broker, cookie, 'GET', path)).status, 200, path);

    const abort = new AbortController();
    const stream = await fetch(`${broker.baseUrl}/v1/stream`, { headers: { cookie }, signal: abort.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type')!, /^text\/event-stream/);
    assert.match(stream.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    abort.abort();
  });

  it('a stream opened with the cookie ends when its session is revoked, before the next event', async () => {
    const cookie = await signIn(broker);
    const { id } = (await (await asPage(broker, cookie, 'GET', '/v1/web/session')).json()) as { id: string };
    const stream = await fetch(`${broker.baseUrl}/v1/stream`, { headers: { cookie } });
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
    const all = await ended;
    assert.ok(!all.includes('after the sign-out'), all);
  });

  it('GET /v1/web/session answers the session and its CSRF token, to the cookie only', async () => {
    const cookie = await signIn(broker);
    const response = await asPage(broker, cookie, 'GET', '/v1/web/session');
    assert.equal(response.status, 200);
    const session = (await response.json()) as Record<string, string>;
    assert.deepEqual(Object.keys(session).sort(), [
      'createdAt',
      'csrfToken',
      'expiresAt',
      'id',
      'idleExpiresAt',
    ]);
    assert.equal(Date.parse(session['expiresAt']!) - Date.parse(session['createdAt']!), 7 * 24 * HOUR);
    assert.equal(Date.parse(session['idleExpiresAt']!) - Date.parse(session['createdAt']!), 12 * HOUR);

    for (const [name, headers] of [
      ['the token', { authorization: `Bearer ${broker.token}` }],
      ['nothing', {}],
      ['an unknown cookie', { cookie: `notify_session=${'x'.repeat(43)}` }],
    ] as const) {
      const refused = await fetch(`${broker.baseUrl}/v1/web/session`, { headers });
      assert.equal(refused.status, 401, name);
      assert.deepEqual(await refused.json(), { error: 'unauthorized' }, name);
    }
  });

  it('with an Authorization header, the header decides', async () => {
    const cookie = await signIn(broker);
    const response = await asPage(broker, cookie, 'GET', '/v1/notifications', {
      headers: { authorization: 'Bearer wrong-token-wrong-token' },
    });
    assert.equal(response.status, 401);
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
    const cookie = await signIn(broker);
    for (let hours = 10; hours < 7 * 24; hours += 10) {
      broker.advance(10 * HOUR);
      assert.equal((await asPage(broker, cookie, 'GET', '/v1/health')).status, 200, `after ${hours} h`);
    }
    broker.advance(7 * 24 * HOUR - 160 * HOUR);
    assert.equal((await asPage(broker, cookie, 'GET', '/v1/health')).status, 401, 'after 7 days');
  });
});

describe('state changes from the page: CSRF token and Origin', () => {
  const broker = useClockedBroker();
  const body = { title: 'from the page', message: 'm' };

  it('are refused (403) without the CSRF token or from another origin, and change nothing', async () => {
    const cookie = await signIn(broker);
    const { 'x-csrf-token': csrf, origin } = await pageHeaders(broker, cookie);
    const cases: [string, Record<string, string>][] = [
      ['no CSRF token, no Origin', {}],
      ['no CSRF token', { origin: origin! }],
      ['no Origin', { 'x-csrf-token': csrf! }],
      // The last character changed for sure: a token that already ends in A would otherwise stay right.
      [
        'a wrong CSRF token',
        { origin: origin!, 'x-csrf-token': `${csrf!.slice(0, -1)}${csrf!.endsWith('A') ? 'B' : 'A'}` },
      ],
      ['another site', { origin: 'http://evil.example', 'x-csrf-token': csrf! }],
      ['another port', { origin: `http://127.0.0.1:${broker.port + 1}`, 'x-csrf-token': csrf! }],
      ['https', { origin: `https://127.0.0.1:${broker.port}`, 'x-csrf-token': csrf! }],
      ['Origin null', { origin: 'null', 'x-csrf-token': csrf! }],
    ];
    for (const [name, headers] of cases) {
      for (const [method, path] of [
        ['POST', '/v1/notifications'],
        ['PATCH', '/v1/settings'],
        ['DELETE', '/v1/web/sessions'],
        ['POST', '/v1/web/logout'],
      ] as const) {
        const response = await asPage(broker, cookie, method, path, {
          body: method === 'PATCH' ? { doNotDisturb: true } : method === 'POST' ? body : undefined,
          headers,
        });
        assert.equal(response.status, 403, `${name}: ${method} ${path}`);
        assert.match(((await response.json()) as { error: string }).error, /web page's session/);
      }
    }
    const list = (await (await broker.request('GET', '/v1/notifications')).json()) as unknown[];
    assert.equal(list.length, 0, 'nothing was created');
    const settings = (await (await broker.request('GET', '/v1/settings')).json()) as Record<string, unknown>;
    assert.equal(settings['doNotDisturb'], false, 'nothing was changed');
    assert.equal((await asPage(broker, cookie, 'GET', '/v1/web/session')).status, 200, 'still signed in');
  });

  it('refuse a cross-site form post carrying the cookie', async () => {
    const cookie = await signIn(broker);
    const response = await fetch(`${broker.baseUrl}/v1/notifications`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://attacker.example',
        'content-type': 'text/plain',
      },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 403);
    const form = await fetch(`${broker.baseUrl}/v1/notifications`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://attacker.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'title=x&message=y',
    });
    assert.equal(form.status, 403);
    assert.equal(((await (await broker.request('GET', '/v1/notifications')).json()) as unknown[]).length, 0);
  });

  it('pass with the token and the page origin, as 127.0.0.1 or as localhost', async () => {
    const cookie = await signIn(broker);
    const headers = await pageHeaders(broker, cookie);
    const created = await asPage(broker, cookie, 'POST', '/v1/notifications', { body, headers });
    assert.equal(created.status, 201);
    const viaLocalhost = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/v1/notifications',
      headers: {
        host: `localhost:${broker.port}`,
        origin: `http://localhost:${broker.port}`,
        cookie,
        'x-csrf-token': headers['x-csrf-token']!,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...body, title: 'via localhost' }),
    });
    assert.equal(viaLocalhost.status, 201);
    const crossed = await httpRequest({
      port: broker.port,
      method: 'POST',
      path: '/v1/notifications',
      headers: {
        host: `localhost:${broker.port}`,
        origin: `http://127.0.0.1:${broker.port}`,
        cookie,
        'x-csrf-token': headers['x-csrf-token']!,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    assert.equal(crossed.status, 403, 'the Origin must match the Host');
  });

  it('a CSRF token belongs to its own session', async () => {
    const mine = await signIn(broker);
    const theirs = await signIn(broker);
    const headers = await pageHeaders(broker, theirs);
    assert.equal((await asPage(broker, mine, 'POST', '/v1/notifications', { body, headers })).status, 403);
  });

  it('token requests are unchanged: no CSRF token needed, any Origin', async () => {
    const response = await broker.request('POST', '/v1/notifications', body, {
      origin: 'http://evil.example',
    });
    assert.equal(response.status, 201);
  });
});

describe('no CORS, and the security headers', () => {
  const broker = useClockedBroker();

  it('never answers with Access-Control headers, preflight or not', async () => {
    const cookie = await signIn(broker);
    const answers = [
      await fetch(`${broker.baseUrl}/v1/notifications`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-csrf-token, content-type',
        },
      }),
      await asPage(broker, cookie, 'GET', '/v1/notifications', {
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
    const cookie = await signIn(broker);
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
      asPage(broker, cookie, 'POST', '/v1/notifications', { body: {} }),
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

  it('logout ends the own session and clears the cookie', async () => {
    const cookie = await signIn(broker);
    const headers = await pageHeaders(broker, cookie);
    const response = await asPage(broker, cookie, 'POST', '/v1/web/logout', { headers });
    assert.equal(response.status, 204);
    assert.match(response.headers.get('set-cookie')!, /^notify_session=; .*Max-Age=0/);
    assert.equal((await asPage(broker, cookie, 'GET', '/v1/health')).status, 401);
  });

  it('revoking all ends every session', async () => {
    const cookies = [await signIn(broker), await signIn(broker)];
    const response = await broker.request('DELETE', '/v1/web/sessions');
    assert.equal(response.status, 200);
    const { revoked } = (await response.json()) as { revoked: number };
    assert.ok(revoked >= 2, `revoked ${revoked}`);
    for (const cookie of cookies)
      assert.equal((await asPage(broker, cookie, 'GET', '/v1/health')).status, 401);
    assert.deepEqual(await (await broker.request('GET', '/v1/web/sessions')).json(), { sessions: [] });
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
      const session = await visit(((await fresh.json()) as { url: string }).url);
      const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
      assert.equal((await asPage(broker, cookie, 'GET', '/v1/health')).status, 200);

      await broker.stop();
      replaceConfigFile(home, { ...readConfigFile(home), authToken: 'yet-another-token-while-stopped' });
      broker = await startBroker({ home, port });
      assert.equal(
        (await asPage(broker, cookie, 'GET', '/v1/health')).status,
        401,
        'token changed while stopped',
      );
      assert.deepEqual(await (await broker.request('GET', '/v1/web/sessions')).json(), { sessions: [] });
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
