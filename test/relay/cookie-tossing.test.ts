/**
 * Cookie tossing against the real notify-relay: a sibling host of the relay's domain plants its own
 * session cookie in the person's browser (Chromium, two host names mapped to loopback), hoping the
 * person approves their laptop into the planted account. Over HTTPS the cookies are `__Host-` ones.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  createPairing,
  OPERATOR,
  pollOnTime,
  setUpOperator,
  WebSession,
  type Pairing,
} from '../support/relay-web.js';
import { makeThrowawayCert } from '../support/throwaway-cert.js';

let relay: RelayProcess;
let web: WebSession;
let browser: Browser;
let sibling: Server;
let plantedSession: string;

/** The relay as the browser names it: app.relay.test, resolved to 127.0.0.1. */
function appUrl(path: string): string {
  return `http://app.relay.test:${relay.port}${path}`;
}

async function joinAs(username: string): Promise<WebSession> {
  const link = /(http:\/\/[^<\s]+\/join\?token=nri_[A-Za-z0-9_-]{43})/.exec(
    (await web.post('/people/invite', {})).text,
  )?.[1];
  assert.ok(link);
  const person = new WebSession(relay);
  await person.get(new URL(link).pathname + new URL(link).search);
  const password = 'mallory has a long password';
  const joined = await person.post('/join', {
    token: new URL(link).searchParams.get('token')!,
    username,
    password,
    password_again: password,
  });
  assert.equal(joined.status, 303, joined.text);
  return person;
}

async function signedInPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(appUrl('/sign-in'));
  await page.fill('input[name=username]', OPERATOR.username);
  await page.fill('input[name=password]', OPERATOR.password);
  await page.click('button[type=submit]');
  await page.waitForURL(appUrl('/inbox'));
  return page;
}

before(async () => {
  relay = await startRelay();
  web = await setUpOperator(relay);
  plantedSession = (await joinAs('mallory')).cookies.get('notify_relay_session')!;
  assert.match(plantedSession, /^nrs_/);
  // evil.relay.test: a sibling host that sets a cookie for the whole relay.test domain, on /pair only
  // (a longer path comes first in the Cookie header, so a first-wins reader took it).
  sibling = createServer((_request, response) => {
    response.setHeader(
      'set-cookie',
      `notify_relay_session=${plantedSession}; Domain=relay.test; Path=/pair; SameSite=Lax`,
    );
    response.setHeader('content-type', 'text/html');
    response.end('<p>Nothing to see here.</p>');
  });
  await new Promise<void>((resolve) => sibling.listen(0, '127.0.0.1', resolve));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--host-resolver-rules=MAP *.relay.test 127.0.0.1'],
  });
});

after(async () => {
  await browser?.close();
  sibling?.close();
  await relay.cleanup();
});

describe('cookie tossing', () => {
  it('a session cookie planted from a sibling host signs the browser out; the laptop is not paired into that account', async () => {
    const page = await signedInPage();
    await page.goto(`http://evil.relay.test:${(sibling.address() as AddressInfo).port}/`);
    const sessions = (await page.context().cookies(appUrl('/pair'))).filter(
      (cookie) => cookie.name === 'notify_relay_session',
    );
    assert.equal(sessions.length, 2, 'the browser now sends two session cookies to /pair');

    const pairing: Pairing = await createPairing(relay, 'ada-laptop');
    await page.goto(appUrl(`/pair?code=${pairing.user_code}`));
    assert.equal(new URL(page.url()).pathname, '/sign-in', 'a doubled session cookie is no session');
    assert.doesNotMatch((await page.textContent('body')) ?? '', /mallory/);
    assert.equal((await pollOnTime(relay, pairing)).body['status'], 'pending', 'nothing was approved');
  });

  it('the approval page names the account the sender will be paired with', async () => {
    const page = await signedInPage();
    const pairing = await createPairing(relay, 'ada-laptop');
    await page.goto(appUrl(`/pair?code=${pairing.user_code}`));
    assert.equal(
      (await page.textContent('#pair-account'))?.startsWith(`Signed in as ${OPERATOR.username}:`),
      true,
    );
  });
});

describe('cookies over HTTPS', () => {
  it('are __Host- cookies, and a session cookie without the prefix (as a sibling host could set) is no session', async () => {
    const cert = makeThrowawayCert();
    const secure = await startRelay({
      args: ['--tls-cert', cert.certFile, '--tls-key', join(dirname(cert.certFile), 'key.pem')],
    });
    try {
      const session = await setUpOperator(secure, new WebSession(secure, { ca: cert.cert }));
      const token = session.cookies.get('__Host-notify_relay_session');
      assert.match(token ?? '', /^nrs_/);
      assert.match(session.cookies.get('__Host-notify_relay_csrf') ?? '', /^nrx_/);
      assert.deepEqual(
        [...session.cookies.keys()].filter((name) => !name.startsWith('__Host-')),
        [],
        'no cookie without the prefix',
      );
      assert.equal((await session.get('/installations')).status, 200);

      const planted = new WebSession(secure, { ca: cert.cert });
      planted.cookies.set('notify_relay_session', token!);
      const response = await planted.get('/installations');
      assert.equal(response.status, 303);
      assert.match(response.headers.get('location') ?? '', /^\/sign-in/);
    } finally {
      await secure.cleanup();
      cert.remove();
    }
  });
});
