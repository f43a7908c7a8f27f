/**
 * The relay as an installable web app in a real headless Chromium (Debian's, driven by playwright-core):
 * the manifest and the service worker install; pushes delivered to the worker over CDP
 * (ServiceWorker.deliverPushMessage, with the payload the relay really sent, decrypted at the stand-in)
 * show the notification with its title, tag and two buttons; the worker's answer reaches the relay and
 * leaves a short "Allowed" that closes itself; the closing push leaves no notification open. It writes
 * docs/relay-push-devices.png: the inbox with its device list, 390 px wide.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { PushService, type ReceivedPush } from '../support/push-service.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  setUpOperator,
  type WebSession,
} from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { launchChromium } from '../web/support/browser.js';
import { addDevice, PUSH_ARGS } from './push-support.js';

const PHONE = { width: 390, height: 844 };
const DOCS = new URL('../../../docs/', import.meta.url);

let relay: RelayProcess;
let web: WebSession;
let service: PushService;
let credential: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let worker: Worker;
let registrationId = '';

interface Shown {
  title: string;
  tag: string;
  body: string;
  requireInteraction: boolean;
  actions: { action: string; title: string }[];
}

/**
 * What the worker's registration shows now, asked through the inbox page's handle on the registration:
 * it outlives the worker, which Chromium may stop and start again between pushes.
 */
function shown(): Promise<Shown[]> {
  return page.evaluate(`navigator.serviceWorker.ready.then((ready) => ready.getNotifications()).then((list) => list.map((n) => ({
    title: n.title, tag: n.tag, body: n.body, requireInteraction: n.requireInteraction,
    actions: n.actions.map((a) => ({ action: a.action, title: a.title })),
  })))`) as Promise<Shown[]>;
}

/** A notification delivered to the relay, and the push the relay sent for this state of it (decrypted at the stand-in). */
async function pushed(
  id: string,
  body: Record<string, unknown>,
  device: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<ReceivedPush> {
  const before = service.deliveredTo(device).length;
  await deliver(relay, credential, id, body);
  return waitFor(
    () =>
      service
        .deliveredTo(device)
        .slice(before)
        .find((push) => push.payload['id'] === id),
    `the push of ${id}`,
  );
}

/**
 * Hands the push to the worker over CDP and waits until what the worker shows passes `check`.
 * `ServiceWorker.deliverPushMessage` is fire-and-forget: a push Chromium drops while it starts or
 * wakes the worker (seen once in 3,000 tests on a loaded CI machine) is handed over again, as a push
 * service redelivers an unacknowledged push, and the redelivery is printed, so a worker that fails
 * to show a push still fails here after three tries.
 */
async function deliverToWorker<T>(
  push: ReceivedPush,
  check: (list: Shown[]) => T | undefined | false,
  what: string,
): Promise<T> {
  let last: Shown[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(relay.url).origin,
      registrationId,
      data: JSON.stringify(push.payload),
    });
    try {
      return await waitFor(async () => check((last = await shown())), what, 5_000);
    } catch {
      process.stderr.write(`push of ${String(push.payload['id'])} not shown after try ${attempt}\n`);
    }
  }
  throw new Error(`timed out waiting for ${what}; the worker shows ${JSON.stringify(last)}`);
}

before(async () => {
  service = await PushService.start();
  relay = await startRelay({ args: PUSH_ARGS });
  web = await setUpOperator(relay);
  credential = (await pairSender(relay, web)).credential;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(10_000);
  await context.grantPermissions(['notifications'], { origin: new URL(relay.url).origin });
  page = await context.newPage();
  await page.goto(`${relay.url}/sign-in`);
  await page.fill('input[name=username]', OPERATOR.username);
  await page.fill('input[name=password]', OPERATOR.password);
  await page.click('button[type=submit]');
  await page.waitForURL(`${relay.url}/inbox`);
});

after(async () => {
  await browser?.close();
  await relay.cleanup();
  await service.stop();
});

describe('the relay as a web app in Chromium', () => {
  it('has a manifest Chromium reads without errors, and installs the service worker at / on load', async () => {
    cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    assert.equal(manifest.url, `${relay.url}/manifest.webmanifest`);
    assert.deepEqual(manifest.errors, []);
    const scope = await page.evaluate('navigator.serviceWorker.ready.then((ready) => ready.scope)');
    assert.equal(scope, `${relay.url}/`);
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
        const found = event.registrations.find((registration) => registration.scopeURL === `${relay.url}/`);
        if (found) resolve(found.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    registrationId = await registered;
    assert.match((await page.textContent('#alerts')) ?? '', /Alert this device/);
    assert.match((await page.textContent('#alerts')) ?? '', /Add to Home Screen/);
  });

  it('shows a pushed permission request with its title, tag and the first two of three buttons; Allow answers it', async () => {
    const { subscription } = await addDevice(web, service, 'Chromium');
    const push = await pushed(
      'n-browser',
      delivered({
        title: 'Run npm publish?',
        actions: [
          { id: 'allow', label: 'Allow' },
          { id: 'deny', label: 'Deny' },
          { id: 'allow_always', label: 'Always allow' },
        ],
      }),
      subscription,
    );
    const [notification] = await deliverToWorker(push, (list) => list.length > 0 && list, 'the notification');
    assert.deepEqual(notification, {
      title: 'Run npm publish?',
      tag: 'n-browser',
      body: 'npm publish',
      requireInteraction: true,
      actions: [
        { action: 'allow', title: 'Allow' },
        { action: 'deny', title: 'Deny' },
      ],
    });

    // The Allow button: Chromium gives no way to click a notification, so the worker's own click
    // handler is handed the event (an untrusted event cannot extend its life, but its answer is sent).
    await worker.evaluate(`registration.getNotifications().then(([shownNow]) => {
      try {
        dispatchEvent(new NotificationEvent('notificationclick', { notification: shownNow, action: 'allow' }));
      } catch {
        // waitUntil refuses an untrusted event; the answer it was given is on its way.
      }
    })`);
    const item = await waitFor(async () => {
      const listed = await web.inbox('GET', '/v1/inbox/notifications');
      const found = (
        listed.body['notifications'] as { id: string; status: string; answer?: { action: string } }[]
      ).find((candidate) => candidate.id === 'n-browser');
      return found?.answer && found;
    }, 'the answer on the relay');
    assert.deepEqual([item.status, item.answer!.action], ['resolved', 'allow']);
    const confirmation = await waitFor(
      async () => (await shown()).find((n) => n.title === 'Allowed'),
      '"Allowed"',
    );
    assert.equal(confirmation.tag, 'n-browser');
    assert.deepEqual(confirmation.actions, []);
    await waitFor(async () => (await shown()).length === 0, '"Allowed" closing itself');
    const events = await api(relay, 'GET', '/v1/installation', { bearer: credential });
    assert.equal(events.status, 200);
  });

  it('the closing push of a request resolved elsewhere leaves no notification open', async () => {
    const { subscription } = await addDevice(web, service, 'Chromium again');
    const open = await pushed(
      'n-closing',
      delivered({ updated_at: '2026-11-25T17:50:00.000Z' }),
      subscription,
    );
    await deliverToWorker(open, (list) => list.some((n) => n.tag === 'n-closing'), 'the open alert');
    const closing = await pushed(
      'n-closing',
      delivered({ status: 'resolved', updated_at: '2026-11-25T17:51:00.000Z' }),
      subscription,
    );
    assert.equal(closing.payload['status'], 'resolved');
    await deliverToWorker(closing, (list) => list.length === 0, 'no notification left');
  });

  it('lists the devices with Send test and Remove, 390 px wide, and writes the screenshot', async () => {
    const { id } = await addDevice(web, service, 'Safari on iPhone');
    await web.inbox('POST', `/v1/inbox/push/subscriptions/${id}/test`);
    await waitFor(
      async () =>
        (
          (await web.inbox('GET', '/v1/inbox/push/subscriptions')).body['subscriptions'] as {
            id: string;
            last_delivery_at?: string;
          }[]
        ).find((device) => device.id === id && device.last_delivery_at),
      'the test delivered',
    );
    await page.reload();
    await page.waitForSelector('.device:has-text("Safari on iPhone")');
    const names = await page.$$eval('.device strong', (nodes) => nodes.map((node) => node.textContent));
    assert.deepEqual(names, ['Chromium', 'Chromium again', 'Safari on iPhone']);
    assert.equal(await page.locator('.device button:has-text("Send test")').count(), 3);
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    assert.ok(width <= PHONE.width, `no sideways scrolling (${width} px)`);
    await page.locator('#alerts').scrollIntoViewIfNeeded();
    await page.screenshot({ path: new URL('relay-push-devices.png', DOCS).pathname });
    await page.click('.device:has-text("Safari on iPhone") button:has-text("Remove")');
    await page.waitForSelector('.device:has-text("Safari on iPhone")', { state: 'detached' });
  });
});
