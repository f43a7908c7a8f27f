import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { callJson } from '../support/outbox-broker.js';
import { launchChromium } from './support/browser.js';
import { signInLink } from './support/sign-in.js';

type Route = Record<string, unknown>;

/** What a person chose or was given: everything but the route's own id and times. */
const chosen = ({ id: _id, createdAt: _created, updatedAt: _updated, ...rest }: Route) => rest;

describe('a new route is the same from the page and from notifyctl routes add', () => {
  const broker = useBroker();
  let browser: Browser;
  let providerId: string;

  before(async () => {
    browser = await launchChromium();
    const provider = await callJson(broker, 'POST', '/v1/providers', {
      kind: 'webhook',
      name: 'Phone hook',
      settings: { url: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    providerId = provider.body!['id'] as string;
  });
  after(async () => {
    await browser?.close();
  });

  it('the New route form, left as it opens, makes the route routes add makes', async () => {
    const cli = await runNotifyctl(['routes', 'add', '--provider', providerId, '--json'], {
      env: broker.home.env,
    });
    assert.equal(cli.code, 0, cli.stderr);
    const fromCli = JSON.parse(cli.stdout) as Route;

    const page = await browser.newPage();
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.goto(`${broker.baseUrl}/#/routes`);
    const form = page.getByRole('form', { name: 'New route' });
    await form.getByRole('button', { name: 'Create route' }).click();
    const said = page.getByRole('status').getByText(/^Route route to Phone hook created/);
    await said.waitFor();

    const routes = (await callJson(broker, 'GET', '/v1/routes')).body as unknown as Route[];
    const fromPage = routes.find((route) => route['id'] !== fromCli['id'])!;
    assert.deepEqual(chosen(fromPage), chosen(fromCli));
    assert.deepEqual(
      [fromPage['enabled'], fromPage['minimumPriority'], fromPage['includeMessage']],
      [false, 'normal', true],
    );
    assert.equal(
      await said.innerText(),
      'Route route to Phone hook created, disabled: Enable it when it is ready.',
    );
  });
});
