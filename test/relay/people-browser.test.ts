/** The People page and the inbox order in a real headless Chromium (Debian's /usr/bin/chromium, playwright-core). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { deliver, delivered, OPERATOR, pairSender, WebSession } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';

const NEW_PASSWORD = 'a brand new passphrase';

let relay: RelayProcess;
let browser: Browser;
let phone: BrowserContext;
let page: Page;

async function signIn(target: Page, password: string): Promise<void> {
  await target.goto(`${relay.url}/sign-in`);
  await target.fill('input[name=username]', OPERATOR.username);
  await target.fill('input[name=password]', password);
  await target.click('button[type=submit]');
  await target.waitForURL(`${relay.url}/inbox`);
}

before(async () => {
  relay = await startRelay();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
  phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  phone.setDefaultTimeout(5_000);
  page = await phone.newPage();
  await waitFor(() => relay.setupUrl, 'the setup link');
  await page.goto(relay.setupUrl!);
  await page.fill('input[name=username]', OPERATOR.username);
  await page.fill('input[name=password]', OPERATOR.password);
  await page.fill('input[name=password_again]', OPERATOR.password);
  await page.click('button[type=submit]');
  await page.waitForURL(`${relay.url}/installations`);
});

after(async () => {
  await browser?.close();
  await relay.cleanup();
});

describe('People in Chromium', () => {
  it("orders the inbox by the relay's receipt time, not by a sender's dates", async () => {
    const web = new WebSession(relay);
    await web.get('/sign-in');
    assert.equal((await web.post('/sign-in', OPERATOR)).status, 303);
    const dating = await pairSender(relay, web, 'dates-ahead');
    const honest = await pairSender(relay, web, 'honest-laptop');
    const future = { created_at: '9999-12-31T00:00:00.000Z', updated_at: '9999-12-31T00:00:00.000Z' };
    await deliver(relay, dating.credential, 'n-future', delivered({ ...future, title: 'From the future' }));
    await deliver(relay, honest.credential, 'n-honest', delivered({ title: 'Honest' }));
    await page.goto(`${relay.url}/inbox`);
    await page.waitForSelector('li.notification .title:has-text("Honest")');
    const titles = await page.$$eval('li.notification .title', (nodes) =>
      nodes.map((node) => node.textContent),
    );
    assert.deepEqual(titles, ['Honest', 'From the future'], 'the later delivery on top');
  });

  it('"Sign out everywhere else" sends the inbox open on another computer to sign-in', async () => {
    const laptop = await browser.newContext();
    try {
      const desk = await laptop.newPage();
      desk.setDefaultTimeout(5_000);
      await signIn(desk, OPERATOR.password);
      await desk.waitForSelector('#inbox li.notification');
      await page.goto(`${relay.url}/people`);
      assert.ok((await page.locator('li.session').count()) >= 2, 'this browser and the laptop, at least');
      await page.click('button:has-text("Sign out everywhere else")');
      await page.waitForSelector('.notice.ok:has-text("Signed out everywhere else")');
      assert.equal(await page.locator('li.session').count(), 1);
      await desk.waitForURL(/\/sign-in\?next=%2Finbox$/, { timeout: 15_000 });
    } finally {
      await laptop.close();
    }
  });

  it('changes the password with the current one; the new one signs in', async () => {
    await page.goto(`${relay.url}/people`);
    await page.fill('input[name=current_password]', OPERATOR.password);
    await page.fill('#password input[name=password]', NEW_PASSWORD);
    await page.fill('input[name=password_again]', NEW_PASSWORD);
    await page.click('button:has-text("Change password")');
    await page.waitForSelector('.notice.ok:has-text("Password changed.")');
    const other = await browser.newContext();
    try {
      const tab = await other.newPage();
      tab.setDefaultTimeout(5_000);
      await signIn(tab, NEW_PASSWORD);
    } finally {
      await other.close();
    }
  });

  it('invites, withdraws the invitation, and removes a person after asking', async () => {
    await page.goto(`${relay.url}/people`);
    await page.click('button:has-text("Invite someone")');
    const link = (await page.textContent('code.secret'))!;
    await page.click('li.invite button:has-text("Withdraw")');
    await page.waitForSelector('.notice.ok:has-text("Invitation withdrawn")');
    assert.equal(await page.locator('li.invite').count(), 0);
    const stranger = await browser.newContext();
    try {
      const tab = await stranger.newPage();
      assert.equal((await tab.goto(link))?.status(), 404);
      await page.click('button:has-text("Invite someone")');
      await tab.goto((await page.textContent('code.secret'))!);
      await tab.fill('input[name=username]', 'bob');
      await tab.fill('input[name=password]', 'bob has a long password');
      await tab.fill('input[name=password_again]', 'bob has a long password');
      await tab.click('button[type=submit]');
      await tab.waitForURL(`${relay.url}/inbox`);
      await page.goto(`${relay.url}/people`);
      await page.click('li.person:has-text("bob") button:has-text("Remove")');
      await page.waitForSelector('h1:has-text("Remove bob?")');
      await page.click('button:has-text("Remove bob")');
      await page.waitForSelector('.notice.ok:has-text("Removed bob")');
      assert.equal(await page.locator('li.person:has-text("bob")').count(), 0);
      await tab.waitForURL(/\/sign-in/, { timeout: 15_000 });
    } finally {
      await stranger.close();
    }
  });
});
