/**
 * Whether a channel's answers can reach Notify, shown in words on every surface: the providers API's
 * `listening`, `notifyctl providers list` and `show` (and --json), and the page's provider list. The
 * relay is the kind on main that listens (its event stream); the channels of issue 32 report the same.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { startTestRelay, type TestRelay } from '../support/test-relay.js';
import { waitFor } from '../support/wait-for.js';
import { launchChromium } from '../web/support/browser.js';
import { signInLink } from '../web/support/sign-in.js';
import { pair, profileOf, routeEverythingTo } from './relay-cli.js';

interface Listening {
  state: string;
  reason?: string;
  since: string;
}

describe('listening health of a provider that carries answers back', () => {
  let broker: BrokerProcess;
  let relay: TestRelay;
  let providerId: string;
  let browser: Browser;
  let page: Page;

  const listening = async (): Promise<Listening | undefined> => {
    const provider = (await (await broker.request('GET', `/v1/providers/${providerId}`)).json()) as {
      listening?: Listening;
    };
    return provider.listening;
  };
  const notifyctl = (...args: string[]) => runNotifyctl(args, { env: broker.home.env });

  before(async () => {
    broker = await startBroker();
    relay = await startTestRelay({ name: 'Phone relay' });
    assert.equal((await pair(broker, relay)).code, 0);
    providerId = (await profileOf(broker, relay))!.id;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(await signInLink(broker));
  });
  after(async () => {
    await browser?.close();
    await broker.stop();
    broker.home.cleanup();
    await relay.close();
  });

  it('has none while the provider is disabled', async () => {
    assert.equal(await listening(), undefined);
    const list = await notifyctl('providers', 'list');
    assert.doesNotMatch(list.stdout, /answers:/);
  });

  it('says "listening for answers" once the event stream is open', async () => {
    await routeEverythingTo(broker, providerId);
    await waitForLog(broker.home, `relay: provider ${providerId}: event stream open`);
    const shown = await waitFor(async () => {
      const now = await listening();
      return now?.state === 'listening' && now;
    }, 'listening in the API');
    assert.ok(!Number.isNaN(Date.parse(shown.since)));

    const list = await notifyctl('providers', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      new RegExp(`^${providerId} .*\\[relay\\] enabled .*; answers: listening for answers$`, 'm'),
    );
    const show = await notifyctl('providers', 'show', providerId);
    assert.match(show.stdout, /^ {2}answers: listening for answers since \d{4}-\d\d-\d\dT/m);
    const json = JSON.parse((await notifyctl('providers', 'list', '--json')).stdout) as {
      listening?: Listening;
    }[];
    assert.equal(json.find((provider) => provider.listening)?.listening?.state, 'listening');

    await page.goto(`${broker.baseUrl}/#/providers`);
    const card = page.locator('.card', { hasText: 'relay' });
    await card.getByText(/^listening for answers, since /).waitFor();
  });

  it('says the service refuses the credentials when the relay revokes them', async () => {
    relay.revoke(401);
    relay.dropStreams();
    await waitFor(async () => (await listening())?.state === 'refused', 'refused in the API', 15_000);
    assert.equal((await listening())?.reason, 'http_401');
    const list = await notifyctl('providers', 'list');
    assert.match(
      list.stdout,
      /; answers: the service refuses the credentials \(http_401\); no answers until the provider is changed$/m,
    );
    await page.reload();
    await page
      .locator('.card', { hasText: 'relay' })
      .getByText(/^the service refuses the credentials \(http_401\)/)
      .waitFor();
  });
});
