/**
 * The relay's pages in a real headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * setup, the approval page, the live inbox with its answer buttons on a phone-sized screen, a forged
 * form from another page, the CSP, sign-in limits and a revoked installation.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { api, createPairing, deliver, delivered, OPERATOR, pollOnTime } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor } from '../support/wait-for.js';

const PHONE = { width: 390, height: 844 };

let relay: RelayProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const cspViolations: string[] = [];
let credential: string;

async function signIn(target: Page, password = OPERATOR.password): Promise<void> {
  await target.goto(`${relay.url}/sign-in`);
  await target.fill('input[name=username]', OPERATOR.username);
  await target.fill('input[name=password]', password);
  await target.click('button[type=submit]');
}

before(async () => {
  relay = await startRelay();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
  context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(5_000);
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    if (process.env['RELAY_TEST_CONSOLE']) console.log('[browser]', message.text());
  });
  page.on('pageerror', (error) => console.log('[page error]', error.message));
  await waitFor(() => relay.setupUrl, 'the setup link');
});

after(async () => {
  await browser?.close();
  await relay.cleanup();
});

describe('relay pages in Chromium', () => {
  it('the setup link creates the operator account and signs in', async () => {
    await page.goto(relay.setupUrl!);
    await page.fill('input[name=username]', OPERATOR.username);
    await page.fill('input[name=password]', OPERATOR.password);
    await page.fill('input[name=password_again]', OPERATOR.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${relay.url}/installations`);
    assert.match((await page.textContent('header')) ?? '', /Sign out ada/);
  });

  it('the approval page shows the code and sender name; Approve pairs the sender', async () => {
    const pairing = await createPairing(relay, 'ada-laptop');
    const response = await page.goto(pairing.verification_uri_complete);
    assert.equal(response?.headers()['content-security-policy']?.startsWith("default-src 'none'"), true);
    assert.equal(await page.textContent('#pair-code'), pairing.user_code);
    assert.equal(await page.textContent('#pair-sender'), 'ada-laptop');
    await page.click('button:has-text("Approve")');
    await page.waitForSelector('h1:has-text("Approved")');
    const polled = await pollOnTime(relay, pairing);
    assert.equal(polled.body['status'], 'approved');
    credential = polled.body['credential'] as string;
    await page.goto(`${relay.url}/installations`);
    assert.match((await page.textContent('main')) ?? '', /ada-laptop/);
  });

  it('typing the code by hand, in lower case without the hyphen, finds it too; Reject refuses the sender', async () => {
    const pairing = await createPairing(relay, 'stranger');
    await page.goto(`${relay.url}/pair`);
    await page.fill('input[name=code]', pairing.user_code.replace('-', '').toLowerCase());
    await page.click('button:has-text("Continue")');
    assert.equal(await page.textContent('#pair-sender'), 'stranger');
    await page.click('button:has-text("Reject")');
    await page.waitForSelector('h1:has-text("Rejected")');
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'rejected' });
  });

  it('the inbox shows deliveries live, active on top, and Allow answers once through the event stream', async () => {
    const stream = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    try {
      await page.goto(`${relay.url}/inbox`);
      await page.waitForSelector('#inbox .empty:has-text("Nothing waits for you.")');
      assert.equal(await page.$('li.notification'), null, 'nothing delivered yet');
      await deliver(
        relay,
        credential,
        'n-done',
        delivered({
          title: 'Tests passed',
          actions: [],
          status: 'resolved',
          created_at: '2026-11-25T17:40:00.000Z',
        }),
      );
      await deliver(
        relay,
        credential,
        'n-ask',
        delivered({ title: 'Run this?', message: '<img src=x onerror=alert(1)> npm publish' }),
      );
      await page.waitForSelector('li.notification.status-active');
      const titles = await page.$$eval('li.notification .title', (nodes) =>
        nodes.map((node) => node.textContent),
      );
      assert.deepEqual(titles, ['Run this?', 'Tests passed'], 'active first');
      assert.equal(
        await page.textContent('li.notification.status-active .message'),
        '<img src=x onerror=alert(1)> npm publish',
        'shown as text, exactly',
      );
      assert.equal(await page.$('li.notification img'), null);
      assert.match(
        (await page.textContent('li.notification.status-active dl.facts')) ?? '',
        /Sender\s*ada-laptop/,
        'the row names the paired sender it came from',
      );
      await page.click('li.notification.status-active button:has-text("Allow")');
      await page.waitForSelector('li.notification dd:has-text("answered Allow")');
      await stream.until((reader) => reader.events.some((frame) => frame.event === 'answer'));
      const answer = JSON.parse(stream.events.find((frame) => frame.event === 'answer')!.data!);
      assert.deepEqual([answer.notification_id, answer.lifecycle, answer.action], ['n-ask', 1, 'allow']);
      assert.equal(await page.$('li.notification.status-active'), null, 'answered means resolved');
      // Readable on a phone: nothing wider than the screen.
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth',
      )) as number;
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
    } finally {
      stream.close();
    }
  });

  it('resolve at the desk clears it in the open inbox; Dismiss in the inbox reaches the sender', async () => {
    await deliver(relay, credential, 'n-desk', delivered({ title: 'Desk one', actions: [] }));
    await page.waitForSelector('li.notification.status-active .title:has-text("Desk one")');
    await api(relay, 'POST', '/v1/notifications/n-desk/status', {
      bearer: credential,
      body: { status: 'resolved' },
    });
    await page.waitForSelector('li.notification.status-active', { state: 'detached' });
    await deliver(relay, credential, 'n-phone', delivered({ title: 'Phone one', actions: [] }));
    await page.click('li.notification.status-active button:has-text("Dismiss")');
    await page.waitForSelector('li.notification.status-dismissed .title:has-text("Phone one")');
    const stream = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    try {
      await stream.until((reader) => reader.events.some((frame) => frame.event === 'status'));
      assert.match(
        stream.events.find((frame) => frame.event === 'status')!.data!,
        /"notification_id":"n-phone".*"status":"dismissed"/,
      );
    } finally {
      stream.close();
    }
  });

  it('signed out in another tab, the open inbox goes to sign-in at its next change and back after it', async () => {
    await page.goto(`${relay.url}/inbox`);
    await page.waitForSelector('li.notification .title:has-text("Phone one")');
    const other = await context.newPage();
    await other.goto(`${relay.url}/installations`);
    await other.click('button:has-text("Sign out")');
    await other.waitForURL(`${relay.url}/sign-in`);
    await other.close();
    await deliver(relay, credential, 'n-after', delivered({ title: 'After sign-out', actions: [] }));
    // The stream ends at the change; the browser comes back after the relay's `retry: 5000` and is refused.
    await page.waitForURL(/\/sign-in\?next=%2Finbox$/, { timeout: 15_000 });
    assert.equal(await page.$('li.notification'), null, 'nothing delivered after sign-out shows');
    await page.fill('input[name=username]', OPERATOR.username);
    await page.fill('input[name=password]', OPERATOR.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${relay.url}/inbox`);
    await page.waitForSelector('li.notification.status-active .title:has-text("After sign-out")');
  });

  it('a form posted from another page (no CSRF token) is refused and revokes nothing', async () => {
    const installationId = (await api(relay, 'GET', '/v1/installation', { bearer: credential })).body[
      'id'
    ] as string;
    const attacker: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<form id="f" method="post" action="${relay.url}/installations/${installationId}/revoke"></form><script>document.getElementById('f').submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (attacker.address() as { port: number }).port;
      const forged = await context.newPage();
      const refused = forged.waitForResponse((response) => response.url().includes('/revoke'));
      await forged.goto(`http://127.0.0.1:${port}/`);
      assert.equal((await refused).status(), 403);
      await forged.close();
      assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: credential })).status, 200);
    } finally {
      attacker.close();
    }
  });

  it('no page broke its Content-Security-Policy', () => {
    assert.deepEqual(cspViolations, []);
  });

  it('sign-in is limited after 5 wrong passwords, even for the right one', async () => {
    const other = await browser.newContext();
    const tab = await other.newPage();
    try {
      for (let index = 0; index < 5; index++) {
        await signIn(tab, `wrong password ${index}`);
        await tab.waitForSelector('.notice.error:has-text("Wrong user name or password.")');
      }
      await signIn(tab);
      await tab.waitForSelector('.notice.error:has-text("Too many failed sign-ins.")');
      assert.equal(new URL(tab.url()).pathname, '/sign-in');
    } finally {
      await other.close();
    }
    relay.advance(15 * 60_000 + 1_000);
  });

  it('Revoke on the installations page asks once more, then refuses the credential at once', async () => {
    await page.goto(`${relay.url}/installations`);
    await page.click('li.installation:has-text("ada-laptop") button:has-text("Revoke")');
    await page.waitForSelector('h1:has-text("Revoke ada-laptop?")');
    assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: credential })).status, 200);
    await page.click('button:has-text("Revoke ada-laptop")');
    await page.waitForSelector('.notice.ok:has-text("Revoked")');
    const refused = await api(relay, 'GET', '/v1/installation', { bearer: credential });
    assert.equal(refused.status, 401);
    assert.equal(refused.body['error'], 'invalid_auth');
    await page.goto(`${relay.url}/inbox`);
    await page.waitForSelector('#inbox .empty:has-text("Nothing waits for you.")');
    assert.equal(await page.$('li.notification'), null, 'what it delivered is gone');
  });
});
