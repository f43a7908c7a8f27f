import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { launchChromium } from './support/browser.js';
import { signInLink } from './support/sign-in.js';

/** A notification's own page follows the event stream: what happens elsewhere shows without a reload. */
describe("a notification's page while it changes elsewhere", () => {
  const broker = useBroker();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await broker.request(method, path, body);
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };

  before(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(await signInLink(broker));
  });
  after(async () => {
    await browser?.close();
  });

  it('shows an answer given elsewhere, and takes its buttons away', async () => {
    const { id } = await call('POST', '/v1/notifications', {
      title: 'Deploy to prod?',
      message: './deploy v2',
      actions: [
        { id: 'deploy', label: 'Deploy' },
        { id: 'cancel', label: 'Cancel' },
      ],
    });
    await page.goto(`${broker.baseUrl}/#/n/${id}`);
    const lifecycle = page.locator('ol.lifecycle');
    await lifecycle.getByText('Now active').waitFor();
    await page.getByRole('button', { name: /^Answer Deploy:/ }).waitFor();
    await call('POST', `/v1/notifications/${id}/answer`, { action: 'cancel' });
    await lifecycle.getByText('Answered cancel from cli').waitFor();
    await page.getByRole('button', { name: /^Answer Deploy:/ }).waitFor({ state: 'detached' });
  });

  it('shows a resolve by the agent, and keeps to its own notification', async () => {
    const shown = await call('POST', '/v1/notifications', { title: 'Tests failed', message: '3 of 120' });
    const other = await call('POST', '/v1/notifications', { title: 'Lint failed', message: '2 files' });
    await page.goto(`${broker.baseUrl}/#/n/${shown.id}`);
    await page.locator('ol.lifecycle').getByText('Now active').waitFor();
    await call('PATCH', `/v1/notifications/${other.id}`, { status: 'resolved' });
    await call('PATCH', `/v1/notifications/${shown.id}`, { status: 'resolved' });
    await page.locator('ol.lifecycle').getByText('Now resolved').waitFor();
    await page.getByRole('heading', { name: 'Tests failed', level: 1 }).waitFor();
  });

  it('shows a change made after the page read it but before its event stream opened', async () => {
    const { id } = await call('POST', '/v1/notifications', { title: 'Disk almost full', message: '95 %' });
    const opening = await context.newPage();
    const read = opening.waitForResponse((response) => response.url().endsWith(`/v1/notifications/${id}`));
    await opening.route(/\/v1\/stream/, async (route) => {
      await read;
      await call('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
      await route.continue();
    });
    await opening.goto(`${broker.baseUrl}/#/n/${id}`);
    await opening.locator('ol.lifecycle').getByText('Now resolved').waitFor();
    await opening.close();
  });
});
