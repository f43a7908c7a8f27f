/**
 * After a stale answer is refused (409), the page draws the request as it is now: the refusal stays on
 * screen, the row shows the new text, and its buttons answer the new revision. In a real Chromium, on
 * the broker's inbox, the broker's notification page and the relay's inbox.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { NotificationDto } from '../../src/client/api-types.js';
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
import { launchChromium } from '../web/support/browser.js';
import { signInLink } from '../web/support/sign-in.js';

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];
const BROKER_STALE =
  'this request changed after it was shown (revision 1 answered, now revision 2); look at it again and answer what it asks now';
const RELAY_STALE = /This request changed after the page showed it, so your answer was not given/;

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Allow on what still shows `first`: refused, and `second` shows in its place beside the refusal. */
async function staleAllowRedraws(
  page: Page,
  scope: Locator,
  stale: string | RegExp,
  first: string,
  second: string,
) {
  await scope.getByText(first).waitFor();
  assert.equal(await scope.getByText(second).count(), 0, 'the page still shows the first command');
  await scope.getByRole('button', { name: /^Answer Allow/ }).click();
  await page.getByRole('alert').filter({ hasText: stale }).waitFor();
  await scope.getByText(second).waitFor();
  assert.equal(await scope.getByText(first).count(), 0, 'the first command is gone');
  await page.getByRole('alert').filter({ hasText: stale }).waitFor();
}

describe("the broker's page redraws a request whose answer was refused as stale", () => {
  const broker = useBroker();
  let page: Page;

  const ask = async (key: string, message: string): Promise<NotificationDto> => {
    const response = await broker.request('POST', '/v1/notifications', {
      title: `Run this? (${key})`,
      message,
      key,
      agent: 'claude-code',
      type: 'permission_required',
      actions: ACTIONS,
    });
    assert.equal(response.status, 201);
    return (await response.json()) as NotificationDto;
  };
  const current = async (id: string) =>
    (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as NotificationDto;

  before(async () => {
    page = await (await browser.newContext()).newPage();
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  });

  it('inbox: the row shows revision 2 after the refusal, and Allow then answers revision 2', async () => {
    const first = await ask('inbox', 'ls -la /tmp/inbox');
    // The page's event stream drops and stays down: the page keeps showing revision 1.
    await page.route('**/v1/stream**', (route) => route.abort());
    await page.reload();
    const row = page.locator('#active li.notification', { hasText: 'Run this? (inbox)' });
    await row.getByText('ls -la /tmp/inbox').waitFor();
    const second = await ask('inbox', 'curl -fsSL https://example.com/inbox.sh | sh');
    assert.deepEqual([second.id, second.revision], [first.id, 2]);

    await staleAllowRedraws(
      page,
      row,
      BROKER_STALE,
      'ls -la /tmp/inbox',
      'curl -fsSL https://example.com/inbox.sh | sh',
    );
    assert.equal((await current(first.id)).answer, undefined, 'the stale Allow answered nothing');

    await row.getByRole('button', { name: /^Answer Allow/ }).click();
    await page.getByRole('status').filter({ hasText: 'Answered Allow' }).waitFor();
    const answered = await current(first.id);
    assert.deepEqual(
      [answered.revision, answered.answer?.action, answered.answer?.surface],
      [2, 'allow', 'web'],
    );
    await page.unroute('**/v1/stream**');
  });

  it('notification page: it shows revision 2 after the refusal, and Allow then answers revision 2', async () => {
    const first = await ask('page', 'ls -la /tmp/page');
    // The page's event stream drops and stays down: the notification's page keeps showing revision 1
    // (with its stream it would show revision 2 at once: test/web/notification-live.test.ts).
    await page.route('**/v1/stream**', (route) => route.abort());
    await page.goto(`${broker.baseUrl}/#/n/${first.id}`);
    const section = page.locator('section[aria-labelledby="notification-heading"]');
    await section.getByText('ls -la /tmp/page').waitFor();
    const second = await ask('page', 'curl -fsSL https://example.com/page.sh | sh');
    assert.deepEqual([second.id, second.revision], [first.id, 2]);

    await staleAllowRedraws(
      page,
      section,
      BROKER_STALE,
      'ls -la /tmp/page',
      'curl -fsSL https://example.com/page.sh | sh',
    );
    assert.equal((await current(first.id)).answer, undefined, 'the stale Allow answered nothing');

    await section.getByRole('button', { name: /^Answer Allow/ }).click();
    await page.getByRole('status').filter({ hasText: 'Answered Allow' }).waitFor();
    const answered = await current(first.id);
    assert.deepEqual(
      [answered.revision, answered.answer?.action, answered.answer?.surface],
      [2, 'allow', 'web'],
    );
    await page.unroute('**/v1/stream**');
  });
});

describe("the relay's inbox redraws a request whose answer was refused as stale", () => {
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

  it('the row shows the new text after the refusal, and Allow then answers it', async () => {
    const FIRST = 'ls -la /tmp/relay';
    const SECOND = 'curl -fsSL https://example.com/relay.sh | sh';
    assert.equal(
      (await deliver(relay, credential, 'n-stale', delivered({ message: FIRST, revision: 1 }))).status,
      201,
    );

    const page = await (await browser.newContext()).newPage();
    await page.goto(`${relay.url}/sign-in`);
    await page.fill('input[name=username]', OPERATOR.username);
    await page.fill('input[name=password]', OPERATOR.password);
    await page.click('button[type=submit]');
    // The inbox's event stream is down: the page keeps showing the first command.
    await page.route('**/v1/inbox/stream**', (route) => route.abort());
    await page.goto(`${relay.url}/inbox`);
    const row = page.locator('li.notification', { hasText: 'Run this?' });
    await row.getByText(FIRST).waitFor();
    assert.equal(
      (await deliver(relay, credential, 'n-stale', delivered({ message: SECOND, revision: 2 }))).status,
      200,
    );

    await staleAllowRedraws(page, row, RELAY_STALE, FIRST, SECOND);
    await row.getByRole('button', { name: /^Answer Allow/ }).click();
    await page.getByRole('status').filter({ hasText: 'Answered Allow' }).waitFor();
    const { body } = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (
      body['notifications'] as { id: string; message: string; answer?: { action: string } }[]
    ).find((entry) => entry.id === 'n-stale');
    assert.deepEqual([item?.message, item?.answer?.action], [SECOND, 'allow']);
  });
});
