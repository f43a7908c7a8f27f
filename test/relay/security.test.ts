/** The relay's defences against the real notify-relay: limits, CSRF, CSP, accounts, secrets, bad input, TLS. */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  createPairing,
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { makeThrowawayCert } from '../support/throwaway-cert.js';

let relay: RelayProcess;
let web: WebSession;

before(async () => {
  relay = await startRelay({ args: ['--delivery-rate', '5'] });
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('rate limits', () => {
  it('pairing creation: the 11th in a minute from one address is 429 with Retry-After, a minute later it works', async () => {
    relay.advance(61_000);
    for (let index = 0; index < 10; index++) {
      assert.equal((await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' } })).status, 201);
    }
    const refused = await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.body['error'], 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    relay.advance(61_000);
    assert.equal((await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' } })).status, 201);
  });

  it('polling: more than 60 polls a minute from one address is 429', async () => {
    const pairing = await createPairing(relay);
    const statuses: number[] = [];
    for (let index = 0; index < 61; index++) {
      relay.advance(5_000 / 61);
      statuses.push(
        (await api(relay, 'POST', `/v1/pairings/${pairing.pairing_id}/poll`, { bearer: pairing.poll_secret }))
          .status,
      );
    }
    assert.deepEqual(statuses.slice(0, 60), Array(60).fill(200));
    assert.equal(statuses[60], 429);
  });

  it('delivery: more than --delivery-rate requests a minute per installation is 429', async () => {
    const sender = await pairSender(relay, web, 'busy-laptop');
    for (let index = 0; index < 5; index++) {
      assert.equal((await deliver(relay, sender.credential, `n-rate-${index}`, delivered())).status, 201);
    }
    const refused = await deliver(relay, sender.credential, 'n-rate-5', delivered());
    assert.equal(refused.status, 429);
    assert.ok(refused.headers.get('retry-after'));
  });

  it('sign-in: after 5 wrong passwords for a name even the right one is refused (429) for a while', async () => {
    const browser = new WebSession(relay);
    await browser.get('/sign-in');
    for (let index = 0; index < 5; index++) {
      const wrong = await browser.post('/sign-in', {
        username: OPERATOR.username,
        password: `wrong-${index}-password`,
      });
      assert.equal(wrong.status, 401);
      assert.match(wrong.text, /Wrong user name or password\./);
    }
    const limited = await browser.post('/sign-in', OPERATOR);
    assert.equal(limited.status, 429);
    assert.match(limited.text, /Too many failed sign-ins\. Try again in \d+ min\./);
    assert.equal(browser.cookies.get('notify_relay_session'), undefined);
    relay.advance(15 * 60_000 + 1_000);
    const allowed = await browser.post('/sign-in', OPERATOR);
    assert.equal(allowed.status, 303);
    assert.match(browser.cookies.get('notify_relay_session') ?? '', /^nrs_/);
  });

  it('user codes: after 10 wrong codes the page refuses more for a while, even a right one', async () => {
    const pairing = await createPairing(relay);
    for (let index = 0; index < 10; index++) {
      assert.equal(
        (await web.get(`/pair?code=BCDF-GH${'23456789'[index % 8]}${'23456789'[(index + 1) % 8]}`)).status,
        404,
      );
    }
    const limited = await web.get(`/pair?code=${pairing.user_code}`);
    assert.equal(limited.status, 429);
    assert.match(limited.text, /Too many wrong codes/);
    relay.advance(15 * 60_000 + 1_000);
  });
});

describe('CSRF and headers', () => {
  it('a form without the CSRF token, or from another origin, is refused with 403 and changes nothing', async () => {
    const sender = await pairSender(relay, web, 'keep-me');
    const noToken = await web.post(`/installations/${sender.installation.id}/revoke`, { csrf: '' });
    assert.equal(noToken.status, 403);
    assert.match(noToken.text, /This form came from another site or has expired/);
    const foreign = await web.post(
      `/installations/${sender.installation.id}/revoke`,
      {},
      { origin: 'https://evil.example' },
    );
    assert.equal(foreign.status, 403);
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 200);
  });

  it('the inbox API refuses a change without the X-CSRF-Token header (403 csrf) and answers nothing', async () => {
    const sender = await pairSender(relay, web, 'csrf-laptop');
    relay.advance(61_000);
    await deliver(relay, sender.credential, 'n-csrf', delivered());
    const listed = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (listed.body['notifications'] as { id: string; inbox_id: string }[]).find(
      (candidate) => candidate.id === 'n-csrf',
    )!;
    const path = `/v1/inbox/notifications/${item.inbox_id}/answer`;
    for (const csrf of [undefined, 'nrx_forged']) {
      const refused = await web.inbox(
        'POST',
        path,
        { action: 'allow', lifecycle: 1, revision: 1 },
        csrf ?? '',
      );
      assert.equal(refused.status, 403);
      assert.equal(refused.body['error'], 'csrf');
    }
    const after = await web.inbox('GET', '/v1/inbox/notifications');
    assert.equal(
      (after.body['notifications'] as { id: string; status: string }[]).find((c) => c.id === 'n-csrf')!
        .status,
      'active',
    );
  });

  it('pages, the API and assets carry the strict CSP and the other security headers; cookies are HttpOnly and SameSite=Strict', async () => {
    // The inbox's script and stylesheet: the web page's components, named by content hash.
    const inbox = (await web.get('/inbox')).text;
    const script = /<script type="module" src="(\/assets\/inbox-[A-Z0-9]{8}\.js)"><\/script>/.exec(
      inbox,
    )?.[1];
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/inbox-[A-Z0-9]{8}\.css)">/.exec(inbox)?.[1];
    assert.ok(script && stylesheet, inbox);
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [stylesheet, 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await web.get(path);
      assert.equal(asset.status, 200, path);
      assert.equal(asset.headers.get('content-type'), type);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
    for (const path of ['/sign-in', '/inbox', '/pair', script, '/.well-known/notify-relay']) {
      const response = await web.get(path);
      assert.equal(response.headers.get('content-security-policy'), CSP, path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('referrer-policy'), 'same-origin');
    }
    const fresh = await fetch(`${relay.url}/sign-in`);
    const cookie = fresh.headers.getSetCookie()[0]!;
    assert.match(cookie, /^notify_relay_csrf=nrx_/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.doesNotMatch(cookie, /Secure/, 'plain HTTP on localhost: a Secure cookie would not come back');
    const page = await fresh.text();
    assert.doesNotMatch(page, /<script>|<style>|style="|onclick=/, 'no inline script or style');
  });
});

describe('accounts', () => {
  it('the setup link works once; the operator invites a person whose inbox and installations are their own', async () => {
    assert.equal(
      (await new WebSession(relay).get(new URL(relay.setupUrl!).pathname + new URL(relay.setupUrl!).search))
        .status,
      404,
    );
    const people = await web.get('/people');
    assert.equal(people.status, 200);
    const invited = await web.post('/people/invite', {});
    const link = /(http:\/\/[^<\s]+\/join\?token=nri_[A-Za-z0-9_-]{43})/.exec(invited.text)?.[1];
    assert.ok(link, invited.text);
    const grace = new WebSession(relay);
    const joinPath = new URL(link).pathname + new URL(link).search;
    assert.equal((await grace.get(joinPath)).status, 200);
    const token = new URL(link).searchParams.get('token')!;
    const weak = await grace.post('/join', {
      token,
      username: 'grace',
      password: 'short',
      password_again: 'short',
    });
    assert.equal(weak.status, 400);
    const joined = await grace.post('/join', {
      token,
      username: 'grace',
      password: 'a long enough pass',
      password_again: 'a long enough pass',
    });
    assert.equal(joined.status, 303);
    await grace.get('/inbox');
    assert.equal((await new WebSession(relay).get(joinPath)).status, 404, 'an invitation works once');
    await grace.get('/people');
    assert.equal((await grace.post('/people/invite', {})).status, 403, 'only the operator invites');
    const gracesSender = await pairSender(relay, grace, 'grace-laptop');
    relay.advance(61_000);
    await deliver(relay, gracesSender.credential, 'n-grace', delivered());
    const mine = await grace.inbox('GET', '/v1/inbox/notifications');
    assert.deepEqual(
      (mine.body['notifications'] as { id: string }[]).map((item) => item.id),
      ['n-grace'],
    );
    const operators = await web.inbox('GET', '/v1/inbox/notifications');
    assert.ok(!(operators.body['notifications'] as { id: string }[]).some((item) => item.id === 'n-grace'));
    const foreignRevoke = await web.post(`/installations/${gracesSender.installation.id}/revoke`, {
      confirm: 'yes',
    });
    assert.equal(foreignRevoke.status, 404, "one person cannot revoke another's installation");
    assert.equal(
      (await api(relay, 'GET', '/v1/installation', { bearer: gracesSender.credential })).status,
      200,
    );
  });

  it('pages need a session: signed out, /pair sends the browser to sign in and back', async () => {
    const response = await new WebSession(relay).get('/pair?code=BCDF-GHJK');
    assert.equal(response.status, 303);
    assert.equal(
      response.headers.get('location'),
      `/sign-in?next=${encodeURIComponent('/pair?code=BCDF-GHJK')}`,
    );
  });
});

describe('secrets and bad input', () => {
  it('bad input never stops the relay, and nothing it printed holds a secret', async () => {
    const sender = await pairSender(relay, web, 'noisy');
    const raw = (text: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(relay.port, '127.0.0.1', () => socket.end(text));
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        socket.resume();
      });
    await raw('GARBAGE\r\n\r\n');
    await raw(`GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await raw(
      'POST /v1/pairings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{',
    );
    const odd: [string, RequestInit][] = [
      ['/v1/pairings/%ZZ/poll', { method: 'POST' }],
      [
        '/v1/notifications/x',
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${sender.credential}`,
            'content-type': 'application/json',
            'idempotency-key': 'k',
          },
          body: 'null',
        },
      ],
      [
        '/v1/notifications/x',
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${sender.credential}`,
            'content-type': 'application/json',
            'idempotency-key': 'k2',
          },
          body: '{"__proto__":{"status":"active"}}',
        },
      ],
      ['/v1/inbox/notifications/99999999999999999999/answer', { method: 'POST' }],
      [
        '/sign-in',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'x'.repeat(9_000),
        },
      ],
      ['/pair?code=BCDF-GHJK&code=BCDF-GHJM', {}],
      ['/setup?token=a&token=b', {}],
      ['/join?token=a&token=b', {}],
      ['/sign-in?next=a&next=b', {}],
      ['/assets/..%2f..%2fpackage.json', {}],
    ];
    for (const [path, init] of odd) {
      const response = await fetch(`${relay.url}${path}`, init);
      assert.ok(response.status < 500, `${path}: ${response.status}`);
    }
    assert.equal((await api(relay, 'GET', '/.well-known/notify-relay')).status, 200);
    const output = relay.output();
    for (const secret of [
      sender.credential,
      OPERATOR.password,
      web.cookies.get('notify_relay_session')!,
      web.csrf,
    ]) {
      assert.ok(!output.includes(secret), 'a secret in the output');
    }
    assert.doesNotMatch(output, /nrc_|nrp_|nrs_|nrx_|nri_/);
  });
});

describe('HTTPS and proxies', () => {
  it('with --tls-cert/--tls-key it serves HTTPS, sends HSTS and Secure cookies', async () => {
    const cert = makeThrowawayCert();
    const secure = await startRelay({
      args: ['--tls-cert', cert.certFile, '--tls-key', join(dirname(cert.certFile), 'key.pem')],
    });
    try {
      assert.match(secure.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const response = await new Promise<{
        headers: Record<string, string | string[] | undefined>;
        status: number;
      }>((resolve, reject) => {
        const req = httpsRequest(`${secure.url}/sign-in`, { ca: cert.cert }, (res) => {
          res.resume();
          resolve({ headers: res.headers, status: res.statusCode ?? 0 });
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers['strict-transport-security'], 'max-age=31536000');
      assert.match(String((response.headers['set-cookie'] as string[])[0]), /; Secure/);
    } finally {
      await secure.cleanup();
      cert.remove();
    }
  });

  it('X-Forwarded-Proto/Host name the verification URL only with --trust-proxy', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'relay.example.org' };
    relay.advance(61_000);
    const untrusted = await api(relay, 'POST', '/v1/pairings', { body: { sender_name: 'a' }, headers });
    assert.equal(untrusted.body['verification_uri'], `${relay.url}/pair`);
    const proxied = await startRelay({ args: ['--trust-proxy'] });
    try {
      const trusted = await api(proxied, 'POST', '/v1/pairings', { body: { sender_name: 'a' }, headers });
      assert.equal(trusted.body['verification_uri'], 'https://relay.example.org/pair');
    } finally {
      await proxied.cleanup();
    }
  });
});
