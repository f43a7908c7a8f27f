/**
 * The relay's own-origin rules as a browser or an attacker meets them: which cookie is believed, when
 * a form post is genuine, where a sign-in may send the browser, which headers every answer carries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  addCookie,
  bearer,
  CONTENT_SECURITY_POLICY,
  csrfToken,
  isGenuine,
  localPath,
  originOf,
  securityHeaders,
} from './security.js';

const TOKEN = `nrx_${'A'.repeat(43)}`;
const OTHER_TOKEN = `nrx_${'B'.repeat(43)}`;

/** A request as Fastify hands it over: only the fields these rules read. */
function request(
  headers: Record<string, string> = {},
  protocol: 'http' | 'https' = 'http',
  host = 'relay.test:8080',
): FastifyRequest {
  return { headers, protocol, host } as unknown as FastifyRequest;
}

/** A reply that keeps the headers set on it. */
function reply(initial?: string | string[]): FastifyReply & { cookies(): string[] } {
  const headers = new Map<string, unknown>();
  if (initial !== undefined) headers.set('set-cookie', initial);
  const fake = {
    getHeader: (name: string) => headers.get(name),
    header(name: string, value: unknown) {
      headers.set(name, value);
      return fake;
    },
    cookies: () => (headers.get('set-cookie') as string[] | undefined) ?? [],
  };
  return fake as unknown as FastifyReply & { cookies(): string[] };
}

describe('relay security: headers on every answer', () => {
  it('forbids framing, sniffing, inline code and foreign referrers; HSTS only over HTTPS', () => {
    const plain = securityHeaders(request());
    assert.deepEqual(plain, {
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
        "manifest-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    assert.equal(plain['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.equal(securityHeaders(request({}, 'https'))['strict-transport-security'], 'max-age=31536000');
  });
});

describe('relay security: its own origin', () => {
  it('is the configured public URL when there is one, else the scheme and host the client used', () => {
    assert.equal(originOf(request(), 'https://relay.example.com'), 'https://relay.example.com');
    assert.equal(originOf(request(), undefined), 'http://relay.test:8080');
    assert.equal(originOf(request({}, 'https', 'r.example'), undefined), 'https://r.example');
  });
});

describe('relay security: cookies', () => {
  it('sets HttpOnly, SameSite=Strict cookies on path /, with __Host- and Secure over HTTPS, beside those set already', () => {
    const plain = reply('other=1');
    addCookie(plain, request(), 'notify_relay_session', 'abc', 60);
    assert.deepEqual(plain.cookies(), [
      'other=1',
      'notify_relay_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=60',
    ]);
    const secure = reply(['a=1', 'b=2']);
    addCookie(secure, request({}, 'https'), 'notify_relay_session', 'abc', 0);
    assert.deepEqual(secure.cookies(), [
      'a=1',
      'b=2',
      '__Host-notify_relay_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    ]);
    const fresh = reply();
    addCookie(fresh, request(), 'x', 'y', 5);
    assert.equal(fresh.cookies().length, 1);
  });

  it('believes a CSRF cookie sent once under its own name; over HTTPS only the __Host- one', () => {
    const fromCookie = (header: string, protocol: 'http' | 'https' = 'http') =>
      isGenuine(request({ cookie: header }, protocol), TOKEN, undefined);
    assert.equal(fromCookie(`notify_relay_csrf=${TOKEN}`), true);
    assert.equal(fromCookie(`theme=dark;  notify_relay_csrf = ${TOKEN} ; lang=en`), true);
    assert.equal(fromCookie(`notify_relay_csrf=${TOKEN}`, 'https'), false, 'a plain-named cookie over HTTPS');
    assert.equal(fromCookie(`__Host-notify_relay_csrf=${TOKEN}`, 'https'), true);
    assert.equal(fromCookie(`__Host-notify_relay_csrf=${TOKEN}`), false, 'the prefixed name over plain HTTP');
    assert.equal(fromCookie(`xnotify_relay_csrf=${TOKEN}`), false);
    assert.equal(fromCookie(`=${TOKEN}`), false);
    assert.equal(fromCookie(`notify_relay_csrf=${TOKEN}; notify_relay_csrfX`), true, 'a part without =');
    assert.equal(
      fromCookie(`notify_relay_csrf=${TOKEN}; notify_relay_csrf=${TOKEN}`),
      false,
      'a second cookie of that name (tossed by a sibling host) makes neither trusted',
    );
  });

  it('keeps a browser CSRF token that has the right shape, and gives one to a browser without', () => {
    const keep = reply();
    assert.equal(csrfToken(request({ cookie: `notify_relay_csrf=${TOKEN}` }), keep), TOKEN);
    assert.deepEqual(keep.cookies(), []);

    for (const bad of ['', 'nrx_short', `${TOKEN}x`, `x${TOKEN}`, `nrx_${'A'.repeat(42)}!`]) {
      const replaced = reply();
      const given = csrfToken(request({ cookie: `notify_relay_csrf=${bad}` }), replaced);
      assert.match(given, /^nrx_[A-Za-z0-9_-]{43}$/, bad);
      assert.notEqual(given, bad);
      assert.deepEqual(replaced.cookies(), [
        `notify_relay_csrf=${given}; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800`,
      ]);
    }

    const page = request();
    const answer = reply();
    const first = csrfToken(page, answer);
    assert.equal(csrfToken(page, answer), first, 'every form of one response carries the same token');
    assert.equal(answer.cookies().length, 1);
    assert.notEqual(csrfToken(request(), reply()), first, 'each browser its own');
  });
});

describe('relay security: a genuine form post', () => {
  const withCookie = (headers: Record<string, string> = {}) =>
    request({ cookie: `notify_relay_csrf=${TOKEN}`, ...headers });

  it('carries the token of the cookie, and comes from this origin when the browser names one', () => {
    assert.equal(isGenuine(withCookie(), TOKEN, undefined), true, 'no Origin header (older browsers)');
    assert.equal(isGenuine(withCookie({ origin: 'http://relay.test:8080' }), TOKEN, undefined), true);
    assert.equal(isGenuine(withCookie({ origin: 'http://evil.test' }), TOKEN, undefined), false);
    assert.equal(isGenuine(withCookie({ origin: 'null' }), TOKEN, undefined), false);
    assert.equal(
      isGenuine(withCookie({ origin: 'http://relay.test:8080' }), TOKEN, 'https://relay.example.com'),
      false,
      'behind a proxy only the public URL is this origin',
    );
    assert.equal(
      isGenuine(withCookie({ origin: 'https://relay.example.com' }), TOKEN, 'https://relay.example.com'),
      true,
    );
  });

  it('is refused without a token, with another token, or without the cookie', () => {
    assert.equal(isGenuine(withCookie(), undefined, undefined), false);
    assert.equal(isGenuine(withCookie(), [TOKEN], undefined), false);
    assert.equal(isGenuine(withCookie(), OTHER_TOKEN, undefined), false);
    assert.equal(isGenuine(withCookie(), '', undefined), false);
    assert.equal(isGenuine(request(), TOKEN, undefined), false);
  });
});

describe('relay security: bearer credentials', () => {
  it('reads "Bearer <credential>" of up to 200 URL-safe characters, nothing else', () => {
    const of = (authorization?: string) =>
      bearer(request(authorization === undefined ? {} : { authorization }));
    assert.equal(of('Bearer nrc_abc-DEF_123'), 'nrc_abc-DEF_123');
    assert.equal(of('  Bearer nrc_abc  '), 'nrc_abc');
    assert.equal(of(`Bearer ${'a'.repeat(200)}`), 'a'.repeat(200));
    assert.equal(of(`Bearer ${'a'.repeat(201)}`), undefined);
    assert.equal(of('Bearer '), undefined);
    assert.equal(of('bearer nrc_abc'), undefined);
    assert.equal(of('Basic nrc_abc'), undefined);
    assert.equal(of('Bearer nrc abc'), undefined);
    assert.equal(of('Bearer nrc.abc'), undefined);
    assert.equal(of('xBearer nrc_abc'), undefined);
    assert.equal(of(), undefined);
  });
});

describe('relay security: where a sign-in sends the browser', () => {
  it('a path on this origin goes through; anything that could leave it goes to the inbox', () => {
    assert.equal(localPath('/pair?code=WDJBMJHT'), '/pair?code=WDJBMJHT');
    assert.equal(localPath("/a-b._~!$&'()*+,;=:@%2F/x"), "/a-b._~!$&'()*+,;=:@%2F/x");
    assert.equal(localPath('/'), '/');
    assert.equal(localPath(`/${'a'.repeat(299)}`), `/${'a'.repeat(299)}`);
    for (const away of [
      `/${'a'.repeat(300)}`,
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/x\r\nLocation: http://evil.example',
      'https://evil.example/',
      'inbox',
      ' /inbox',
      '/inbox#frag',
      '/ä',
      '',
      undefined,
      ['/pair'],
    ]) {
      assert.equal(localPath(away), '/inbox', JSON.stringify(away));
    }
  });
});
