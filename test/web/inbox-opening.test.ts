import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { within } from '../support/wait-for.js';
import { launchChromium } from './support/browser.js';
import { signInLink } from './support/sign-in.js';

/**
 * The inbox fetches its list and opens the event stream together: a notification raised in between,
 * whichever of the two the broker takes first, must still be shown without a reload.
 */
describe('the inbox a page opens while agents write', () => {
  const broker = useBroker();
  let browser: Browser;
  let context: BrowserContext;

  const raise = async (title: string) => {
    const response = await broker.request('POST', '/v1/notifications', {
      title,
      message: 'An agent asked while the page opened',
    });
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
  };
  const active = (page: Page, title: string) =>
    page.getByRole('list', { name: 'Active notifications' }).getByText(title);
  const shows = (page: Page, title: string) => active(page, title).waitFor();

  before(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
    await (await context.newPage()).goto(await signInLink(broker));
  });
  after(async () => {
    await browser?.close();
  });

  it('keeps a notification the stream drew while a list read before it was on its way', async () => {
    const page = await context.newPage();
    let lists = 0;
    let answered: () => void;
    const staleListDrawn = new Promise<void>((resolve) => (answered = resolve));
    // The second list is the one the stream's opening asks for: it is read, then a notification is
    // raised and drawn from the stream, and only then does the list (without it) reach the page.
    await page.route(/\/v1\/notifications\?status=active/, async (route) => {
      lists += 1;
      if (lists !== 2) return route.continue();
      const listedBefore = await route.fetch();
      await raise('Raised while the list was on its way');
      await shows(page, 'Raised while the list was on its way');
      const finished = page.waitForEvent('requestfinished', (request) => request === route.request());
      await route.fulfill({ response: listedBefore });
      await finished;
      answered();
    });
    await page.goto(`${broker.baseUrl}/`);
    await within(staleListDrawn, 'the list the stream opening asks for', 30_000);
    // Everything after the stale list comes later on the stream: once this is drawn, so is that list.
    await raise('Raised after the list came');
    await shows(page, 'Raised after the list came');
    assert.equal(await active(page, 'Raised while the list was on its way').isVisible(), true);
    await page.close();
  });

  it('shows a notification raised after the list was read but before the event stream opened', async () => {
    const page = await context.newPage();
    const listed = page.waitForResponse(/\/v1\/notifications\?status=active/);
    await page.route(/\/v1\/stream/, async (route) => {
      await listed;
      await raise('Raised before the stream opened');
      await route.continue();
    });
    await page.goto(`${broker.baseUrl}/`);
    await shows(page, 'Raised before the stream opened');
    await page.close();
  });
});
