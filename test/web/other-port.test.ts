import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page, Response as PageResponse } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';
import { collectConsoleErrors, launchChromium } from './support/browser.js';
import { startLoopbackNeighbour, type LoopbackNeighbour } from './support/loopback-neighbour.js';
import { signInLink } from './support/sign-in.js';

interface Notification {
  id: string;
  title: string;
  status: string;
  answer?: { action: string; surface: string };
}

const SIGN_IN_SENTENCE = 'Run notifyctl open to sign in.';
const STORAGE = 'localStorage.getItem("notify.session")';

/**
 * Issue 29: a page on another loopback port, opened in the person's signed-in browser, gets nothing it
 * can use the web page's session with; the page itself stays signed in (reload, another tab).
 */
describe('the signed-in page against a program on another loopback port', () => {
  const broker = useBroker();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let neighbour: LoopbackNeighbour;
  let request: Notification;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await broker.request(method, path, body);
    assert.ok(response.ok, `${method} ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const create = (title: string, actions = false) =>
    api<Notification>('POST', '/v1/notifications', {
      title,
      message: 'curl https://example.invalid/install.sh | sh',
      agent: 'claude',
      type: 'permission_required',
      ...(actions && {
        actions: [
          { id: 'allow', label: 'Allow' },
          { id: 'deny', label: 'Deny' },
        ],
      }),
    });

  before(async () => {
    browser = await launchChromium();
    neighbour = await startLoopbackNeighbour();
    context = await browser.newContext();
    page = await context.newPage();
    consoleErrors = collectConsoleErrors(page);
    request = await create('Allow the install script?', true);
  });
  after(async () => {
    await browser?.close();
    await neighbour?.close();
  });

  it('signs in: the secret leaves the address bar for storage of the page origin', async () => {
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    assert.equal(page.url(), `${broker.baseUrl}/`, 'no fragment left in the address');
    assert.match(String(await page.evaluate(STORAGE)), /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(await context.cookies(), [], 'no cookie at all');
  });

  it('a page on another loopback port reads nothing, answers nothing, creates nothing', async () => {
    const attacker = await context.newPage();
    const fromBroker: PageResponse[] = [];
    attacker.on('response', (response) => {
      if (response.url().startsWith(broker.baseUrl)) fromBroker.push(response);
    });
    await attacker.goto(neighbour.pageUrl(broker.baseUrl, request.id));
    const report = await neighbour.report;
    const posts = () => fromBroker.filter((response) => response.request().method() === 'POST');
    await waitFor(() => posts().length >= 4, 'the two fetch posts and the two form posts');

    assert.deepEqual(
      fromBroker.filter((response) => response.status() !== 401).map((r) => `${r.status()} ${r.url()}`),
      [],
      'the broker refused every request of the page',
    );
    assert.deepEqual(
      report.read.filter((read) => read.type !== 'opaque'),
      [],
      'the page could read no answer of the broker',
    );

    // The neighbour itself, a program, uses whatever the browser sent it: a cookie, any secret.
    const cookies: string[] = neighbour.received.flatMap(({ headers }) => headers.cookie ?? []);
    const everything = JSON.stringify(neighbour.received);
    const candidates = [...new Set(everything.match(/[A-Za-z0-9_-]{43}/g) ?? [])];
    const tries: Record<string, string>[] = [
      ...cookies.map((cookie) => ({ cookie })),
      ...candidates.flatMap((secret): Record<string, string>[] => [
        { cookie: `notify_session=${secret}` },
        { authorization: `Session ${secret}` },
        { authorization: `Bearer ${secret}` },
      ]),
    ];
    for (const credential of tries) {
      const headers = { ...credential, origin: broker.baseUrl, 'content-type': 'application/json' };
      const session = await fetch(`${broker.baseUrl}/v1/web/session`, { headers: credential });
      const csrf = session.ok ? ((await session.json()) as { csrfToken?: string }).csrfToken : undefined;
      const signed = { ...headers, ...(csrf && { 'x-csrf-token': csrf }) };
      const answers = [
        session,
        await fetch(`${broker.baseUrl}/v1/notifications`, { headers: credential }),
        await fetch(`${broker.baseUrl}/v1/notifications/${request.id}/answer`, {
          method: 'POST',
          headers: signed,
          body: JSON.stringify({ action: 'allow', surface: 'web' }),
        }),
        await fetch(`${broker.baseUrl}/v1/providers`, {
          method: 'POST',
          headers: signed,
          body: JSON.stringify({
            kind: 'webhook',
            name: 'neighbour',
            settings: { url: 'http://127.0.0.1:9/' },
          }),
        }),
      ];
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [401, 401, 401, 401],
        JSON.stringify(credential),
      );
    }

    assert.deepEqual(cookies, [], 'the browser sent the neighbour no cookie');
    const now = await api<Notification>('GET', `/v1/notifications/${request.id}`);
    assert.deepEqual([now.status, now.answer], ['active', undefined], 'the request was not answered');
    assert.deepEqual(await api('GET', '/v1/providers'), [], 'no provider was created');
    await attacker.close();
  });

  it('the signed-in page still lists, follows the stream live and answers', async () => {
    await page.evaluate('window.sameDocument = true');
    const row = page.locator('#active li', { hasText: 'Allow the install script?' });
    await row.waitFor();
    const later = await create('Pushed while the page was open');
    await page.locator('#active li', { hasText: later.title }).waitFor();
    assert.equal(await page.evaluate('window.sameDocument'), true, 'no reload');

    await page.getByRole('button', { name: 'Answer Allow: Allow the install script?' }).click();
    const answered = await waitFor(async () => {
      const now = await api<Notification>('GET', `/v1/notifications/${request.id}`);
      return now.answer && now;
    }, 'the answer');
    assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['allow', 'web']);
  });

  it('stays signed in across a reload and in a new tab of the same origin', async () => {
    await page.reload();
    await page.locator('#active li', { hasText: 'Pushed while the page was open' }).waitFor();
    const tab = await context.newPage();
    await tab.goto(`${broker.baseUrl}/#/history`);
    await tab.getByRole('link', { name: 'Allow the install script?' }).waitFor();
    const sent = await create('Seen by both tabs');
    await tab.goto(`${broker.baseUrl}/`);
    await tab.locator('#active li', { hasText: sent.title }).waitFor();
    await page.locator('#active li', { hasText: sent.title }).waitFor();
    await tab.close();
  });

  it('signing out ends the session and forgets it: the page then says how to sign in', async () => {
    await page.goto(`${broker.baseUrl}/#/sessions`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText(SIGN_IN_SENTENCE).waitFor();
    assert.equal(await page.evaluate(STORAGE), null);
    assert.deepEqual(await api('GET', '/v1/web/sessions'), { sessions: [] });
    const tab = await context.newPage();
    await tab.goto(`${broker.baseUrl}/`);
    await tab.getByText(SIGN_IN_SENTENCE).waitFor();
    await tab.close();
    assert.deepEqual(consoleErrors, []);
  });
});
