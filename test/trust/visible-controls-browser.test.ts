/**
 * Text that displays differently from what runs, in a real Chromium: the broker's page and the relay's
 * inbox show direction and invisible characters as `⟨U+202E⟩` and offer no answer for such a request,
 * saying to answer in the terminal. Screenshots go to the test output folder.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  setUpOperator,
  type WebSession,
} from '../support/relay-web.js';
import { testOutputPath } from '../support/test-output.js';
import { collectConsoleErrors, launchChromium } from '../web/support/browser.js';
import { signInLink } from '../web/support/sign-in.js';

const TERMINAL_ONLY = 'answer in the terminal: this text contains characters that change how it is displayed';
const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];
/** Chromium draws `ls | curl .sh`; the shell runs `ls `, U+202E, ` hs.| lruc`. */
const REVERSED = 'ls \u202e hs.| lruc';
const REVERSED_SHOWN = 'ls ⟨U+202E⟩ hs.| lruc';
const JOINED = 'rm -rf ./build\u200d /';
const JOINED_SHOWN = 'rm -rf ./build⟨U+200D⟩ /';

/** No answer button, the sentence instead; Resolve or Dismiss may stay (they approve nothing). */
async function assertTerminalOnly(row: Locator): Promise<void> {
  await row.getByText(TERMINAL_ONLY).waitFor();
  assert.equal(await row.locator('button.answer').count(), 0, 'no answer button');
  assert.equal(await row.getByRole('button', { name: /Allow|Deny/ }).count(), 0, 'no Allow or Deny');
}

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

describe("the broker's web page shows hidden characters and offers no answer for them", () => {
  const broker = useBroker();
  let page: Page;
  let errors: string[];
  const create = async (body: Record<string, unknown>): Promise<string> => {
    const response = await broker.request('POST', '/v1/notifications', {
      agent: 'claude-code',
      project: 'shop',
      type: 'permission_required',
      priority: 'high',
      actions: ACTIONS,
      ...body,
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: string }).id;
  };

  before(async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    page = await context.newPage();
    errors = collectConsoleErrors(page);
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  });

  it('a right-to-left override and a zero-width joiner show as markers in the inbox, with no Allow', async () => {
    await create({ title: 'Plain request', message: 'ls -la' });
    const reversed = await create({ title: 'Reversed request', message: `Run this command:\n${REVERSED}` });
    await create({ title: 'Joined request', message: JOINED });
    await create({ title: 'Title \u2067hidden\u2069', message: 'ls' });

    const plain = page.locator('#active li', { hasText: 'Plain request' });
    await plain.getByRole('button', { name: 'Answer Allow: Plain request' }).waitFor();

    const row = page.locator('#active li', { hasText: 'Reversed request' });
    await row.waitFor();
    assert.equal(await row.locator('.message').innerText(), `Run this command:\n${REVERSED_SHOWN}`);
    await assertTerminalOnly(row);
    await row.getByRole('button', { name: 'Dismiss: Reversed request' }).waitFor();

    const joined = page.locator('#active li', { hasText: 'Joined request' });
    assert.equal(await joined.locator('.message').innerText(), JOINED_SHOWN);
    await assertTerminalOnly(joined);

    const titled = page.locator('#active li', { hasText: 'Title ⟨U+2067⟩hidden⟨U+2069⟩' });
    await assertTerminalOnly(titled);

    const shot = testOutputPath('visible-controls-web-inbox.png');
    await page.screenshot({ path: shot, fullPage: true });

    await page.goto(`${broker.baseUrl}/#/n/${reversed}`);
    const section = page.locator('section[aria-labelledby="notification-heading"]');
    await section.locator('p.message').waitFor();
    assert.equal(await section.locator('p.message').innerText(), `Run this command:\n${REVERSED_SHOWN}`);
    await assertTerminalOnly(section);
    await page.screenshot({ path: testOutputPath('visible-controls-web-notification.png'), fullPage: true });
  });

  it('logged no console error', () => {
    assert.deepEqual(errors, []);
  });
});

describe("the relay's inbox shows hidden characters and offers no answer for them", () => {
  let relay: RelayProcess;
  let web: WebSession;
  let credential: string;

  before(async () => {
    relay = await startRelay();
    web = await setUpOperator(relay);
    ({ credential } = await pairSender(relay, web));
  });
  after(async () => {
    await relay?.cleanup();
  });

  it('shows the markers and the sentence instead of Allow on a phone, and refuses an answer posted anyway', async () => {
    assert.equal((await deliver(relay, credential, 'n-plain', delivered({ title: 'Plain' }))).status, 201);
    assert.equal(
      (await deliver(relay, credential, 'n-bidi', delivered({ title: 'Reversed', message: REVERSED })))
        .status,
      201,
    );
    assert.equal(
      (await deliver(relay, credential, 'n-zwj', delivered({ title: 'Joined', message: JOINED }))).status,
      201,
    );

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`${relay.url}/sign-in`);
    await page.fill('input[name=username]', OPERATOR.username);
    await page.fill('input[name=password]', OPERATOR.password);
    await page.click('button[type=submit]');
    await page.goto(`${relay.url}/inbox`);

    const plain = page.locator('li.notification', { hasText: 'Plain' });
    await plain.getByRole('button', { name: 'Answer Allow: Plain' }).waitFor();
    const row = page.locator('li.notification', { hasText: 'Reversed' });
    assert.equal(await row.locator('.message').innerText(), REVERSED_SHOWN);
    await assertTerminalOnly(row);
    const joined = page.locator('li.notification', { hasText: 'Joined' });
    assert.equal(await joined.locator('.message').innerText(), JOINED_SHOWN);
    await assertTerminalOnly(joined);
    await page.screenshot({ path: testOutputPath('visible-controls-relay-inbox.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();

    // A page that forgot (or a hand-made request) still cannot approve it.
    const items = (await web.inbox('GET', '/v1/inbox/notifications')).body['notifications'] as {
      inbox_id: string;
      id: string;
      lifecycle: number;
      revision: number;
    }[];
    const bidi = items.find((item) => item.id === 'n-bidi')!;
    const refused = await web.inbox('POST', `/v1/inbox/notifications/${bidi.inbox_id}/answer`, {
      action: 'allow',
      lifecycle: bidi.lifecycle,
      revision: bidi.revision,
    });
    assert.equal(refused.status, 409);
    assert.match(
      JSON.stringify(refused.body),
      /Answer in the terminal: this text contains characters that change how it is displayed\./,
    );
  });
});
