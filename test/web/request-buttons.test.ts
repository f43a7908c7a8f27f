import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';
import { waitFor } from '../support/wait-for.js';
import { launchChromium } from './support/browser.js';
import { signInLink } from './support/sign-in.js';

const NOTE =
  'Resolve and Dismiss answer nothing: the agent stops waiting here and asks in its terminal. ' +
  'Resolve marks it handled; Dismiss puts it away.';

/** How a button is drawn: its fill and where it stands. */
async function drawn(button: Locator) {
  const box = (await button.boundingBox())!;
  const background = await button.evaluate(
    (element) => (globalThis as unknown as BrowserWindow).getComputedStyle(element).backgroundColor,
  );
  return { top: box.y, background };
}

/** The browser's window as these tests use it (the tests compile without the DOM's types). */
interface BrowserWindow {
  getComputedStyle(element: unknown): { backgroundColor: string };
}

const TRANSPARENT = 'rgba(0, 0, 0, 0)';

describe('the buttons of a request on the page', () => {
  const broker = useBroker();
  let browser: Browser;
  let page: Page;
  let requestId: string;

  before(async () => {
    browser = await launchChromium();
    const request = await callJson(broker, 'POST', '/v1/notifications', {
      title: 'Claude Code needs your permission',
      message: 'Claude Code wants to run this command:\nnpm publish',
      agent: 'claude-code',
      project: 'shop',
      type: 'permission_required',
      priority: 'high',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
        { id: 'allow_always', label: 'Always allow npm publish' },
      ],
    });
    requestId = request.body!['id'] as string;
    await callJson(broker, 'POST', '/v1/notifications', { title: 'Build done', message: 'shop v2' });
    page = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  });
  after(async () => {
    await browser?.close();
  });

  const group = (title: string) => page.getByRole('group', { name: `What to do with: ${title}` });
  const request = () => group('Claude Code needs your permission');

  it('Allow and Deny are the main buttons, on their own line above Resolve and Dismiss', async () => {
    const allow = await drawn(request().getByRole('button', { name: /^Answer Allow:/ }));
    const deny = await drawn(request().getByRole('button', { name: /^Answer Deny:/ }));
    const always = await drawn(request().getByRole('button', { name: /^Answer Always allow/ }));
    const resolve = await drawn(request().getByRole('button', { name: /^Resolve:/ }));
    const dismiss = await drawn(request().getByRole('button', { name: /^Dismiss:/ }));
    assert.equal(allow.top, deny.top);
    assert.ok(resolve.top > allow.top, `Resolve at ${resolve.top} px, Allow at ${allow.top} px`);
    assert.equal(dismiss.top, resolve.top);
    for (const answer of [allow, deny]) assert.notEqual(answer.background, TRANSPARENT);
    assert.deepEqual([resolve.background, dismiss.background], [TRANSPARENT, TRANSPARENT]);
    // Deny and Always allow do not look like Allow, so a habit does not press the wrong one.
    assert.equal(new Set([allow.background, deny.background, always.background]).size, 3);
  });

  it('says under them what Resolve and Dismiss do to the waiting agent, also 390 px wide', async () => {
    assert.equal(await request().getByText(NOTE).isVisible(), true);
    assert.match(
      (await request()
        .getByRole('button', { name: /^Resolve:/ })
        .getAttribute('title')) ?? '',
      /without an answer: the agent asks in its terminal/,
    );
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await request().getByText(NOTE).isVisible(), true);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    await page.setViewportSize({ width: 1000, height: 800 });
  });

  it('a notification that asks nothing keeps plain Resolve and Dismiss, without the note', async () => {
    const plain = group('Build done');
    assert.notEqual((await drawn(plain.getByRole('button', { name: /^Resolve:/ }))).background, TRANSPARENT);
    assert.equal(await plain.getByText(NOTE).count(), 0);
  });

  it('Resolve on the request closes it without an answer', async () => {
    await request()
      .getByRole('button', { name: /^Resolve:/ })
      .click();
    const now = await waitFor(async () => {
      const got = await callJson(broker, 'GET', `/v1/notifications/${requestId}`);
      return got.body!['status'] === 'resolved' && got.body!;
    }, 'the request resolved');
    assert.equal(now['answer'], undefined);
  });
});
