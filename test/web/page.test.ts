import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';
import { collectConsoleErrors, launchChromium } from './support/browser.js';
import { startOtherSite } from './support/other-site.js';
import { signInLink } from './support/sign-in.js';

const DOCS = new URL('../../../docs/', import.meta.url);

interface Notification {
  id: string;
  title: string;
  status: string;
  answer?: { action: string; surface: string };
}

describe('the web page in Chromium', () => {
  const broker = useBroker();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let receiver: Receiver;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await broker.request(method, path, body);
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
  const create = (body: Record<string, unknown>) => api<Notification>('POST', '/v1/notifications', body);
  const statusOf = async (id: string) => (await api<Notification>('GET', `/v1/notifications/${id}`)).status;

  before(async () => {
    browser = await launchChromium();
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('without a session shows one sentence: run notifyctl open', async () => {
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${broker.baseUrl}/`);
    await strangerPage.getByText('Run notifyctl open to sign in.').waitFor();
    assert.equal((await strangerPage.locator('main').innerText()).trim(), 'Run notifyctl open to sign in.');
    await stranger.close();
  });

  it("signs in through notifyctl open's one-time link and lands on the inbox", async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 720 } });
    page = await context.newPage();
    consoleErrors = collectConsoleErrors(page);
    const link = await signInLink(broker);
    await page.goto(link);
    assert.equal(page.url(), `${broker.baseUrl}/`);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByText('Nothing waits for you.').waitFor();

    const again = await (await browser.newContext()).newPage();
    const reused = await again.goto(link);
    assert.equal(reused?.status(), 401);
    await again.context().close();
  });

  it('sends the security headers with the page, its assets and the API', async () => {
    const responses = await Promise.all(
      [
        '/',
        `/assets/${await page
          .locator('script[src]')
          .getAttribute('src')
          .then((src) => src!.replace('assets/', ''))}`,
      ].map((path) => context.request.get(`${broker.baseUrl}${path}`)),
    );
    const secret = String(await page.evaluate('localStorage.getItem("notify.session")'));
    responses.push(
      await context.request.get(`${broker.baseUrl}/v1/settings`, {
        headers: { authorization: `Session ${secret}` },
      }),
    );
    for (const response of responses) {
      const headers = response.headers();
      assert.equal(response.status(), 200, response.url());
      assert.match(headers['content-security-policy'] ?? '', /script-src 'self'/);
      assert.match(headers['content-security-policy'] ?? '', /style-src 'self'/);
      assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      assert.equal(headers['x-content-type-options'], 'nosniff');
      assert.equal(headers['referrer-policy'], 'no-referrer');
      assert.equal(headers['access-control-allow-origin'], undefined);
    }
  });

  it('shows a `notify send` without a reload', async () => {
    // Browser-side code as strings: the tests compile without the DOM's types.
    await page.evaluate('window.sameDocument = true');
    const sent = await runNotify(
      ['send', '--title', 'Build failed on main', '--message', '3 tests failed', '--type', 'error'],
      { env: broker.home.env },
    );
    assert.equal(sent.code, 0, sent.stderr);
    const row = page.locator('#active li', { hasText: 'Build failed on main' });
    await row.waitFor();
    assert.match(await row.innerText(), /3 tests failed/);
    assert.equal(await page.evaluate('window.sameDocument'), true);
  });

  it('resolves a notification from the page', async () => {
    const notification = await create({ title: 'Review the migration', message: 'db/006', agent: 'codex' });
    await page.getByRole('button', { name: 'Resolve: Review the migration' }).click();
    await waitFor(async () => (await statusOf(notification.id)) === 'resolved', 'the resolve');
    await page.locator('#recent li', { hasText: 'Review the migration' }).waitFor();
    assert.equal(await page.locator('#active li', { hasText: 'Review the migration' }).count(), 0);
  });

  it('snoozes a notification for 15 minutes from the page, and it stays in the inbox', async () => {
    const notification = await create({
      title: 'Waiting for input',
      message: 'which branch?',
      agent: 'claude',
    });
    await page.getByRole('button', { name: 'Snooze 15 minutes: Waiting for input' }).click();
    const snoozed = await waitFor(async () => {
      const now = await api<Notification & { snoozedUntil?: string }>(
        'GET',
        `/v1/notifications/${notification.id}`,
      );
      return now.snoozedUntil === undefined ? undefined : now;
    }, 'the snooze');
    const minutes = (Date.parse(snoozed.snoozedUntil!) - Date.now()) / 60_000;
    assert.ok(minutes > 14 && minutes <= 15, `snoozed for ${minutes} minutes`);
    assert.equal(snoozed.status, 'active');
    await page.getByRole('status').getByText('Snoozed for 15 minutes: Waiting for input').waitFor();
    const row = page.locator('#active li', { hasText: 'Waiting for input' });
    await row.getByText('Snoozed until').waitFor();
  });

  it("answers a notification's action from the keyboard", async () => {
    const notification = await create({
      title: 'Allow git push?',
      message: 'origin main',
      agent: 'claude',
      project: 'shop',
      priority: 'high',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    await page.getByRole('button', { name: 'Answer Allow: Allow git push?' }).focus();
    await page.keyboard.press('Enter');
    const answered = await waitFor(async () => {
      const now = await api<Notification>('GET', `/v1/notifications/${notification.id}`);
      return now.answer && now;
    }, 'the answer');
    assert.deepEqual(
      [answered.status, answered.answer?.action, answered.answer?.surface],
      ['resolved', 'allow', 'web'],
    );
    await page.getByRole('status').getByText('Answered Allow: Allow git push?').waitFor();
  });

  it('stays readable 390 px wide, and writes the inbox screenshot', async () => {
    await create({
      title: 'Approve deploy to production?',
      message: 'shop v2.3: 14 files changed',
      agent: 'claude',
      project: 'shop',
      type: 'permission_required',
      priority: 'critical',
      actions: [
        { id: 'approve', label: 'Approve' },
        { id: 'reject', label: 'Reject' },
      ],
    });
    await create({
      title: 'Which database for tests?',
      message: 'sqlite or postgres',
      agent: 'codex',
      project: 'api',
      type: 'input_required',
      priority: 'high',
    });
    await page.locator('#active li', { hasText: 'Which database for tests?' }).waitFor();
    await page.screenshot({ path: new URL('web-inbox.png', DOCS).pathname });

    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    await page.setViewportSize({ width: 1000, height: 720 });
  });

  it('creates a webhook provider with the generated form; its Test reaches a real receiver', async () => {
    await page.goto(`${broker.baseUrl}/#/providers`);
    const form = page.getByRole('form', { name: 'New provider' });
    await form.getByLabel('Kind').selectOption('webhook');
    await form.getByLabel('Name', { exact: true }).fill('Team hook');
    await form.getByRole('textbox', { name: 'url' }).fill(receiver.url);
    await form.getByLabel(/^bearerToken/).fill('s3cret-token');
    await form.getByRole('button', { name: 'Create provider' }).click();
    const card = page.locator('.card', { hasText: 'Team hook' });
    await card.waitFor();
    assert.match(await card.innerText(), /bearerToken\s*:?\s*set/);
    assert.doesNotMatch(await page.content(), /s3cret-token/);

    await card.getByRole('button', { name: 'Test Team hook' }).click();
    await waitFor(() => receiver.received.length === 1, 'the test payload');
    const [test] = receiver.received;
    assert.equal((test!.body as { type?: string }).type, 'notification.test');
    assert.equal(test!.headers.authorization, 'Bearer s3cret-token');
    await card.getByRole('status').getByText('Webhook accepted the test notification (HTTP 204).').waitFor();
    const providers = await api<{ name: string; enabled: boolean }[]>('GET', '/v1/providers');
    assert.deepEqual(
      providers.map(({ name, enabled }) => ({ name, enabled })),
      [{ name: 'Team hook', enabled: true }],
    );
    await card.getByText('ok', { exact: true }).waitFor();
    await page.screenshot({ path: new URL('web-provider.png', DOCS).pathname, fullPage: true });
  });

  it('changes a provider with its form and keeps a secret left empty', async () => {
    await page.goto(`${broker.baseUrl}/#/providers`);
    const card = page.locator('.card', { hasText: 'Team hook' });
    await card.getByRole('button', { name: 'Change Team hook' }).click();
    const form = card.getByRole('form', { name: 'Change Team hook' });
    assert.equal(await form.getByLabel(/^bearerToken/).inputValue(), '');
    await form.getByLabel('Name', { exact: true }).fill('Team hook');
    await form.getByLabel('headerName').fill('X-Team');
    await form.getByLabel(/^headerValue/).fill('blue');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Provider Team hook saved.').waitFor();
    const [provider] = await api<{ settings: Record<string, unknown>; secrets: Record<string, boolean> }[]>(
      'GET',
      '/v1/providers',
    );
    assert.equal(provider!.settings['headerName'], 'X-Team');
    assert.deepEqual(provider!.secrets, { signingSecret: false, bearerToken: true, headerValue: true });

    const before = receiver.received.length;
    await card.getByRole('button', { name: 'Test Team hook' }).click();
    const test = await waitFor(() => receiver.received[before], 'the second test payload');
    assert.equal(test.headers.authorization, 'Bearer s3cret-token');
    assert.equal(test.headers['x-team'], 'blue');
  });

  it('creates a route with the form; a matching notification reaches the receiver', async () => {
    await page.goto(`${broker.baseUrl}/#/routes`);
    const form = page.getByRole('form', { name: 'New route' });
    await form.getByLabel('Name', { exact: true }).fill('Urgent to the team');
    await form.getByLabel('Provider').selectOption({ label: 'Team hook' });
    await form.getByLabel('At least priority').selectOption('high');
    await form.getByLabel('Enable it now').check();
    await form.getByRole('button', { name: 'Create route' }).click();
    await page.locator('.card', { hasText: 'Urgent to the team' }).getByText('enabled').waitFor();

    const before = receiver.received.length;
    await create({ title: 'Just news', message: 'low', priority: 'normal' });
    const urgent = await create({ title: 'Disk almost full', message: '95%', priority: 'high' });
    const delivered = await waitFor(
      () =>
        receiver.received.slice(before).find((request) => JSON.stringify(request.body).includes(urgent.id)),
      'the routed delivery',
    );
    assert.equal((delivered.body as { type?: string }).type, 'notification.created');
    assert.equal(JSON.stringify(receiver.received.slice(before)).includes('Just news'), false);
  });

  it("shows a notification's fields, lifecycle and deliveries on its own page", async () => {
    await page.goto(`${broker.baseUrl}/#/history`);
    await page.getByRole('link', { name: 'Disk almost full' }).click();
    await page.getByRole('heading', { name: 'Disk almost full', level: 1 }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Outbox items of this notification' });
    await deliveries.getByRole('cell', { name: 'delivered', exact: true }).waitFor();
    assert.match(await deliveries.innerText(), /notification\.created/);
    assert.match(await page.locator('dl.fields').innerText(), /priority\s+high/);
    await page.getByRole('button', { name: 'Dismiss: Disk almost full' }).click();
    await page.locator('ol.lifecycle').getByText('Now dismissed').waitFor();
  });

  it('follows an address that changed while the page was starting, before it listened for changes', async () => {
    const starting = await context.newPage();
    // As a test runner's second goto right after load, or a link opened into a loading tab: the hash
    // moves before the page's router listens, so no hashchange reaches it.
    await starting.addInitScript(`
      const listen = window.addEventListener.bind(window);
      window.addEventListener = (type, ...rest) => {
        if (type === 'hashchange') history.replaceState(history.state, '', '#/settings');
        return listen(type, ...rest);
      };
    `);
    await starting.goto(`${broker.baseUrl}/`);
    await starting.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await starting.close();
  });

  it('searches the history and pages through it with Older and Newer', async () => {
    for (let index = 1; index <= 55; index++) {
      await create({ title: `Nightly report ${index}`, message: 'zebra stripes', agent: 'cron' });
    }
    await page.goto(`${broker.baseUrl}/#/history`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('zebra');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const found = page.getByRole('list', { name: 'Notifications found' }).locator('> li');
    await page.getByRole('link', { name: 'Nightly report 55', exact: true }).waitFor();
    assert.equal(await found.count(), 50);
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByRole('link', { name: 'Nightly report 5', exact: true }).waitFor();
    assert.deepEqual(
      await found.locator('a.title').allInnerTexts(),
      [5, 4, 3, 2, 1].map((n) => `Nightly report ${n}`),
    );
    assert.equal(await page.getByRole('button', { name: 'Older' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByRole('link', { name: 'Nightly report 55', exact: true }).waitFor();
  });

  it('imports a sound file and lists it', async () => {
    await page.goto(`${broker.baseUrl}/#/sounds`);
    await page
      .getByLabel('File')
      .setInputFiles(new URL('../../../assets/sounds/knock.wav', import.meta.url).pathname);
    await page.getByLabel('Name').fill('door-knock');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('status').getByText('Imported door-knock.').waitFor();
    const sounds = await api<{ name: string; kind: string }[]>('GET', '/v1/sounds');
    assert.deepEqual(sounds.find((sound) => sound.name === 'door-knock')?.kind, 'imported');
    await page.getByRole('button', { name: 'Remove door-knock' }).waitFor();
  });

  it('shows a dead letter with its reason, retries it and purges what was delivered', async () => {
    receiver.answer = () => ({ status: 400 });
    const refused = await create({ title: 'Refused by the team hook', message: 'x', priority: 'critical' });
    type Item = { id: number; notificationId: string; state: string; lastReason: string | null };
    const dead = await waitFor(async () => {
      const items = await api<Item[]>('GET', `/v1/outbox?notificationId=${refused.id}`);
      return items.find((item) => item.state === 'dead');
    }, 'the dead letter');
    receiver.answer = () => ({ status: 204 });

    await page.goto(`${broker.baseUrl}/#/outbox`);
    const row = page.getByRole('row', { name: new RegExp(refused.id) });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`${dead.lastReason} \\(HTTP 400\\)`));
    await row.getByRole('button', { name: `Retry item ${dead.id}` }).click();
    await page.getByRole('status').getByText(`Item ${dead.id} is back in line.`).waitFor();
    await waitFor(async () => {
      const items = await api<Item[]>('GET', `/v1/outbox?notificationId=${refused.id}`);
      return items.every((item) => item.state === 'delivered');
    }, 'the retried delivery');

    // Purge keeps the sends of notifications that still exist: their later updates need them.
    const counts = () => api<{ delivered: number }>('GET', '/v1/outbox/counts');
    const deliveredBefore = (await counts()).delivered;
    await page.getByRole('button', { name: 'Purge delivered' }).click();
    const said = page.getByRole('status').getByText(/^Purged [1-9]\d* delivered items?\.$/);
    await said.waitFor();
    const purged = Number(/\d+/.exec(await said.innerText())![0]);
    assert.equal((await counts()).delivered, deliveredBefore - purged);
  });

  it("refuses a change that does not carry the page's session, even from the page's origin", async () => {
    // Another tab of the signed-in browser: the 401 it provokes is logged on its console, not the page's.
    const tab = await context.newPage();
    await tab.goto(`${broker.baseUrl}/`);
    const status = await tab.evaluate(async () => {
      const response = await fetch('/v1/settings', {
        method: 'PATCH',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pauseNotifications: true }),
      });
      return response.status;
    });
    await tab.close();
    assert.equal(status, 401);
    assert.equal(
      (await api<{ pauseNotifications: boolean }>('GET', '/v1/settings')).pauseNotifications,
      false,
    );
  });

  for (const host of ['localhost', '127.0.0.1'] as const) {
    it(`refuses a form another site (${host}, another port) posts to the broker`, async () => {
      const notification = await create({ title: `Keep me (${host})`, message: 'x' });
      const site = await startOtherSite(host);
      try {
        const other = await context.newPage();
        const landed = other.waitForResponse((response) => response.url().startsWith(broker.baseUrl));
        await other.goto(site.formPostingTo(`${broker.baseUrl}/v1/notifications/${notification.id}/dismiss`));
        const response = await landed;
        assert.ok([401, 403].includes(response.status()), `answered ${response.status()}`);
        await other.close();
      } finally {
        await site.close();
      }
      assert.equal(await statusOf(notification.id), 'active');
    });
  }

  it('changes a setting from the page (with the session the page sends)', async () => {
    await page.goto(`${broker.baseUrl}/#/settings`);
    await page.getByLabel('Do not disturb (toasts still appear, without sounds)').check();
    await waitFor(
      async () => (await api<{ doNotDisturb: boolean }>('GET', '/v1/settings')).doNotDisturb,
      'the setting',
    );
  });

  it("changes a type's priority from the page and keeps its reminders", async () => {
    await api('PUT', '/v1/types/review', { defaultPriority: 'low', remindEveryMinutes: 10, remindTimes: 2 });
    await page.goto(`${broker.baseUrl}/#/types`);
    await page.getByLabel('review default priority').selectOption('high');
    await waitFor(
      async () =>
        (await api<{ id: string; defaultPriority?: string }[]>('GET', '/v1/types')).find(
          (type) => type.id === 'review' && type.defaultPriority === 'high',
        ),
      'the new priority',
    );
    const review = (await api<Record<string, unknown>[]>('GET', '/v1/types')).find(
      (type) => type['id'] === 'review',
    );
    assert.deepEqual(review, {
      id: 'review',
      builtin: false,
      enabled: true,
      defaultPriority: 'high',
      remindEveryMinutes: 10,
      remindTimes: 2,
    });
  });

  it('lists the signed-in browsers and revokes another one, which is then signed out', async () => {
    const laptop = await browser.newContext({
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
    });
    const laptopPage = await laptop.newPage();
    await laptopPage.goto(await signInLink(broker));
    await laptopPage.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();

    await page.goto(`${broker.baseUrl}/#/sessions`);
    // Named as a person says it, not by the raw User-Agent.
    const other = page.locator('.card', { has: page.getByRole('heading', { name: 'Firefox on macOS' }) });
    assert.match(await page.getByRole('heading', { name: /this one/ }).innerText(), /^Chrome on Linux/);
    await other.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').getByText('Session revoked.').waitFor();
    await other.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.card').count(), 1);
    assert.match(await page.locator('.card').innerText(), /this one/);

    await laptopPage.reload();
    await laptopPage.getByText('Run notifyctl open to sign in.').waitFor();
    await laptop.close();
  });

  it('logged no console error on any page', async () => {
    for (const name of ['history', 'types', 'sounds', 'outbox', 'sessions', 'inbox']) {
      await page.goto(`${broker.baseUrl}/#/${name}`);
      await page.locator('main h1').waitFor();
    }
    assert.deepEqual(consoleErrors, []);
  });
});
