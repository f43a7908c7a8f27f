import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { COMMANDS } from '../../src/cli/notifyctl/commands.js';
import { SETTING_NAMES } from '../../src/cli/notifyctl/settings.js';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';
import { launchChromium } from './support/browser.js';
import { signInLink } from './support/sign-in.js';

const GROUPS = ['settings', 'types', 'routes', 'providers', 'outbox'];

/**
 * What notifyctl does for settings, types, routes, providers and the outbox, from its command registry:
 * each subcommand, each of its options, and each setting `settings set` takes.
 */
function cliCapabilities(): string[] {
  return COMMANDS.filter((command) => GROUPS.includes(command.name)).flatMap((command) =>
    (command.subcommands ?? []).flatMap((sub) => [
      `${command.name} ${sub.name}`,
      ...Object.keys(sub.flags ?? {}).map((flag) => `${command.name} ${sub.name} ${flag}`),
      ...(command.name === 'settings' && sub.name === 'set'
        ? SETTING_NAMES.map((setting) => `settings set ${setting}`)
        : []),
    ]),
  );
}

type Where = [hash: string, find: (page: Page) => Locator | Promise<Locator>];
const PROVIDER = 'Phone hook';
const ROUTE = 'To the phone';
const routeForm = (page: Page) => page.getByRole('form', { name: 'New route' });
const providerForm = (page: Page) => page.getByRole('form', { name: 'New provider' });
const field = (name: string) => (page: Page) => page.locator(`[name="${name}"]`).first();

/** Where the page does each of them. A capability notifyctl gains without a line here fails the test. */
const PAGE: Record<string, Where> = {
  'settings show': ['#/settings', (page) => page.getByRole('heading', { name: 'Settings' })],
  'settings set': ['#/settings', field('pauseNotifications')],
  ...Object.fromEntries(
    SETTING_NAMES.map((setting): [string, Where] => [
      `settings set ${setting}`,
      ['#/settings', field(setting.replace('soundsByPriority.', 'sound-'))],
    ]),
  ),
  'types list': ['#/types', (page) => page.getByRole('heading', { name: 'permission_required' })],
  'types set': ['#/types', (page) => page.getByRole('form', { name: 'Add a type' })],
  'types set --priority': ['#/types', (page) => page.getByLabel('deploy default priority')],
  'types set --lifetime': ['#/types', (page) => page.getByLabel('deploy toast lifetime (seconds)')],
  'types set --icon': ['#/types', (page) => page.getByLabel('deploy icon')],
  'types set --sound': ['#/types', (page) => page.getByLabel('deploy sound')],
  'types set --needs-person': ['#/types', (page) => page.getByLabel('deploy needs a person')],
  'types set --resolve-after': ['#/types', (page) => page.getByLabel('deploy resolve after (minutes)')],
  'types set --remind-every': ['#/types', (page) => page.getByLabel('deploy remind every (minutes)')],
  'types set --remind-times': ['#/types', (page) => page.getByLabel('deploy reminders at most')],
  'types set --enabled': ['#/types', (page) => page.getByLabel('deploy enabled')],
  'types set --disabled': ['#/types', (page) => page.getByLabel('deploy enabled')],
  'types remove': ['#/types', (page) => page.getByRole('button', { name: 'Remove type deploy' })],
  'routes list': ['#/routes', (page) => page.getByRole('heading', { name: ROUTE })],
  'routes show': ['#/routes', (page) => page.getByText('waits 5m and sends only if nobody handled it')],
  'routes add': ['#/routes', routeForm],
  ...routeFlags('add'),
  'routes enable': ['#/routes', (page) => page.getByRole('button', { name: `Enable ${ROUTE}` })],
  'routes disable': ['#/routes', (page) => page.getByRole('button', { name: `Enable ${ROUTE}` })],
  'routes remove': ['#/routes', (page) => page.getByRole('button', { name: `Delete ${ROUTE}` })],
  'routes set': ['#/routes', (page) => page.getByRole('button', { name: `Change ${ROUTE}` })],
  ...routeFlags('set'),
  'providers list': ['#/providers', (page) => page.getByRole('heading', { name: PROVIDER })],
  'providers show': ['#/providers', (page) => page.getByText('signingSecret').first()],
  'providers kinds': ['#/providers', (page) => providerForm(page).locator('[name="kind"]')],
  'providers add': ['#/providers', providerForm],
  'providers add --name': ['#/providers', (page) => providerForm(page).locator('[name="name"]')],
  'providers add --set': ['#/providers', (page) => providerForm(page).locator('[name="setting-url"]')],
  'providers add --secret': [
    '#/providers',
    (page) => providerForm(page).locator('[name="setting-signingSecret"]'),
  ],
  'providers set': ['#/providers', (page) => page.getByRole('button', { name: `Change ${PROVIDER}` })],
  'providers set --name': ['#/providers', editProvider('[name="name"]')],
  'providers set --set': ['#/providers', editProvider('[name="setting-url"]')],
  'providers set --secret': ['#/providers', editProvider('[name="setting-signingSecret"]')],
  'providers set --clear-secret': ['#/providers', editProvider('[name="clear-signingSecret"]')],
  'providers enable': ['#/providers', (page) => page.getByRole('button', { name: `Disable ${PROVIDER}` })],
  'providers disable': ['#/providers', (page) => page.getByRole('button', { name: `Disable ${PROVIDER}` })],
  'providers remove': ['#/providers', (page) => page.getByRole('button', { name: `Delete ${PROVIDER}` })],
  'providers test': ['#/providers', (page) => page.getByRole('button', { name: `Test ${PROVIDER}` })],
  'outbox list': ['#/outbox', (page) => page.getByRole('table')],
  'outbox list --state': ['#/outbox', (page) => page.getByRole('group', { name: 'Items by state' })],
  // The page lists the newest 100 of a state; the notification's page lists all of its own.
  'outbox list --limit': ['#/outbox', (page) => page.getByRole('table')],
  'outbox counts': ['#/outbox', (page) => page.getByRole('button', { name: /^dead 1$/ })],
  'outbox retry': ['#/outbox', (page) => page.getByRole('button', { name: /^Retry item \d+$/ })],
  'outbox purge': ['#/outbox', (page) => page.getByRole('button', { name: 'Purge delivered' })],
};

/** The Change form of the route or the provider, opened when it is not yet. */
async function changeForm(page: Page, what: 'route' | 'provider'): Promise<Locator> {
  const name = what === 'route' ? ROUTE : PROVIDER;
  const form = page.getByRole('form', { name: `Change ${name}` });
  if ((await form.count()) === 0) await page.getByRole('button', { name: `Change ${name}` }).click();
  return form;
}

function editProvider(selector: string) {
  return async (page: Page) => (await changeForm(page, 'provider')).locator(selector);
}

function routeFlags(sub: 'add' | 'set'): Record<string, Where> {
  const at = (name: string): Where => [
    '#/routes',
    async (page) =>
      (sub === 'add' ? routeForm(page) : await changeForm(page, 'route')).locator(`[name="${name}"]`),
  ];
  return {
    [`routes ${sub} --provider`]: at('providerId'),
    [`routes ${sub} --name`]: at('name'),
    [`routes ${sub} --min-priority`]: at('minimumPriority'),
    [`routes ${sub} --type`]: at('typeId'),
    [`routes ${sub} --project`]: at('project'),
    [`routes ${sub} --agent`]: at('agent'),
    [`routes ${sub} --title-only`]: at('includeMessage'),
    [`routes ${sub} --with-message`]: at('includeMessage'),
    [`routes ${sub} --delay`]: at('delay'),
    [`routes ${sub} --quiet-hours`]: at('sendDuringQuietHours'),
  };
}

describe('the web page does what notifyctl does for settings, types, routes, providers and the outbox', () => {
  const broker = useBroker();
  let browser: Browser;
  let page: Page;
  let refusing: Receiver;

  before(async () => {
    browser = await launchChromium();
    refusing = await startReceiver(() => ({ status: 400 }));
    // A webhook with a signing secret, a custom type, a disabled route that waits, and a dead letter.
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const provider = await callJson(broker, 'POST', '/v1/providers', {
      kind: 'webhook',
      name: PROVIDER,
      settings: { url: refusing.url, signingSecret: secret },
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    const providerId = provider.body!['id'] as string;
    const enabled = await callJson(broker, 'POST', `/v1/providers/${providerId}/enable`);
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    await callJson(broker, 'PUT', '/v1/types/deploy', { enabled: true });
    const sending = await callJson(broker, 'POST', '/v1/routes', { providerId, minimumPriority: 'low' });
    const live = await callJson(broker, 'POST', `/v1/routes/${sending.body!['id'] as string}/enable`);
    assert.equal(live.status, 200, JSON.stringify(live.body));
    const created = await callJson(broker, 'POST', '/v1/notifications', {
      title: 'refused',
      message: 'm',
      priority: 'high',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await waitFor(
      async () => (await callJson(broker, 'GET', '/v1/outbox/counts')).body!['dead'] === 1,
      'the refused send to be a dead letter',
    );
    await callJson(broker, 'DELETE', `/v1/routes/${sending.body!['id'] as string}`);
    await callJson(broker, 'POST', '/v1/routes', {
      providerId,
      name: ROUTE,
      minimumPriority: 'high',
      delaySeconds: 300,
    });
    page = await (await browser.newContext({ viewport: { width: 1000, height: 900 } })).newPage();
    await page.goto(await signInLink(broker));
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await refusing?.close();
  });

  it('has a line here for each thing notifyctl does there, and none for anything it does not', () => {
    assert.deepEqual(Object.keys(PAGE).sort(), cliCapabilities().sort());
  });

  for (const [capability, [hash, find]] of Object.entries(PAGE)) {
    it(`notifyctl ${capability}: the page has it`, async () => {
      if (!page.url().endsWith(hash)) {
        await page.goto(`${new URL(page.url()).origin}/${hash}`);
        await page.locator('h1').first().waitFor();
      }
      await (await find(page)).waitFor({ state: 'attached', timeout: 5000 });
    });
  }

  it('changes a route: its wait and quiet hours, shown on its card', async () => {
    await page.goto(`${new URL(page.url()).origin}/#/routes`);
    const form = await changeForm(page, 'route');
    await form.getByLabel('Wait before sending').fill('90s');
    await form.getByLabel(/Send during quiet hours/).check();
    await form.getByRole('button', { name: 'Save route' }).click();
    await page.getByRole('status').getByText(`Route ${ROUTE} saved.`).waitFor();
    const [route] = ((await callJson(broker, 'GET', '/v1/routes')).body as unknown as Record<
      string,
      unknown
    >[])!;
    assert.deepEqual([route!['delaySeconds'], route!['sendDuringQuietHours']], [90, true]);
    await page.getByText('waits 90s and sends only if nobody handled it meanwhile').waitFor();
  });

  it("sets a type's reminders", async () => {
    await page.goto(`${new URL(page.url()).origin}/#/types`);
    await page.getByRole('heading', { name: 'deploy' }).waitFor();
    await page.getByLabel('deploy remind every (minutes)').fill('10');
    await page.getByLabel('deploy remind every (minutes)').press('Tab');
    await page.getByRole('status').getByText('deploy: reminds every 10 min.').waitFor();
    const types = (await callJson(broker, 'GET', '/v1/types')).body as unknown as Record<string, unknown>[];
    assert.equal(types.find((type) => type['id'] === 'deploy')!['remindEveryMinutes'], 10);
  });

  it('switches quiet hours on and changes their window', async () => {
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.getByLabel(/^Quiet hours/).check();
    await page.getByRole('status').getByText('Quiet hours: on, 22:00 to 07:00.').waitFor();
    const quiet = page.getByRole('form', { name: 'Quiet hours' });
    await quiet.getByLabel('To').fill('06:30');
    await quiet.getByLabel('sun').uncheck();
    await quiet.getByRole('button', { name: 'Save quiet hours' }).click();
    await page.getByRole('status').getByText('Quiet hours saved.').waitFor();
    const settings = (await callJson(broker, 'GET', '/v1/settings')).body!;
    assert.deepEqual(settings['quietHours'], {
      windows: [{ from: '22:00', to: '06:30', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }],
      minimumPriority: 'critical',
    });
  });

  it('switches quiet while looking off and changes how long a focused request waits', async () => {
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.getByLabel(/^Quiet while looking/).uncheck();
    await page.getByRole('status').getByText('Quiet while looking: off.').waitFor();
    await page.getByLabel('Wait while looking (seconds)').fill('45');
    await page.getByLabel('Wait while looking (seconds)').press('Tab');
    await page.getByRole('status').getByText('Wait while looking: 45 s.').waitFor();
    const settings = (await callJson(broker, 'GET', '/v1/settings')).body!;
    assert.deepEqual([settings['quietWhileFocused'], settings['focusGraceSeconds']], [false, 45]);
  });

  it("says why a send was cancelled: handled before its route's delay ended", async () => {
    const [route] = (await callJson(broker, 'GET', '/v1/routes')).body as unknown as { id: string }[];
    await callJson(broker, 'POST', `/v1/routes/${route!.id}/enable`);
    const created = await callJson(broker, 'POST', '/v1/notifications', {
      title: 'Handled at the desk',
      message: 'm',
      priority: 'high',
    });
    await callJson(broker, 'PATCH', `/v1/notifications/${created.body!['id'] as string}`, {
      status: 'resolved',
    });
    await page.goto(`${new URL(page.url()).origin}/#/outbox`);
    await page.getByRole('button', { name: /^cancelled/ }).click();
    await page
      .getByRole('row', { name: new RegExp(created.body!['id'] as string) })
      .getByText("cancelled: handled before its route's delay ended; nothing was sent")
      .waitFor();
    await page
      .getByRole('row', { name: new RegExp(PROVIDER) })
      .first()
      .waitFor();
  });

  it('reads on a 390 px phone screen without sideways scrolling, on every page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const wide: string[] = [];
    // Each page with its content drawn: what it waits for before it is measured; the outbox with its
    // dead letter (a long id, a reason and a Retry button).
    const drawn: [string, (page: Page) => Locator][] = [
      ['#/inbox', (page) => page.locator('h1')],
      ['#/history', (page) => page.getByRole('link', { name: 'Handled at the desk' })],
      ['#/settings', (page) => page.getByRole('form', { name: 'Quiet hours' })],
      ['#/types', (page) => page.getByLabel('deploy reminders at most')],
      ['#/sounds', (page) => page.locator('h1')],
      ['#/providers', (page) => page.getByRole('button', { name: `Test ${PROVIDER}` })],
      ['#/routes', (page) => page.getByRole('button', { name: `Change ${ROUTE}` })],
      ['#/sessions', (page) => page.locator('h1')],
      ['#/outbox', (page) => page.getByRole('button', { name: /^Retry item/ })],
    ];
    for (const [hash, content] of drawn) {
      await page.goto(`${new URL(page.url()).origin}/${hash}`);
      await content(page).first().waitFor();
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 390) wide.push(`${hash} is ${width} px wide`);
    }
    assert.deepEqual(wide, []);
  });
});
