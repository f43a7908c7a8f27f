import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { useDesktop } from '../support/desktop-broker.js';
import { NOTIFICATIONS_NAME, NOTIFICATIONS_PATH } from '../../src/presentation/freedesktop-display.js';
import { startPrivateBus, type PrivateBus } from '../support/session-bus.js';
import { startForger, type SignalForger } from '../support/signal-forger.js';
import { startWatcher, type TestWatcher } from '../support/status-notifier-watcher.js';

const BUS = 'org.freedesktop.DBus';
const BUS_PATH = '/org/freedesktop/DBus';
const WATCHER = 'org.kde.StatusNotifierWatcher';

interface Created {
  id: string;
  status: string;
}

describe('toasts and signals forged by another program on the session bus', () => {
  const desktop = useDesktop({ maxVisibleToasts: 1 });
  let forger: SignalForger;
  before(async () => (forger = await startForger(desktop.bus.address)));
  after(() => forger.stop());

  async function shown(title: string): Promise<{ id: string; toast: number }> {
    const response = await desktop.broker.request('POST', '/v1/notifications', {
      title,
      message: 'm',
      type: 'permission_required',
    });
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as Created;
    await desktop.server.until(() => desktop.server.calls.some((call) => call.summary === title));
    return { id, toast: desktop.server.calls.find((call) => call.summary === title)!.id };
  }
  const status = async (id: string) =>
    ((await (await desktop.broker.request('GET', `/v1/notifications/${id}`)).json()) as Created).status;
  const forgeAction = (toast: number, key: string) =>
    forger.forge(NOTIFICATIONS_PATH, NOTIFICATIONS_NAME, 'ActionInvoked', 'us', [toast, key]);
  /** The server's own press of Dismiss; resolves to the log line about the notification that follows. */
  async function pressDismiss(notification: { id: string; toast: number }): Promise<string> {
    desktop.server.invokeAction(notification.toast, 'dismiss');
    return waitForLog(desktop.broker.home, `notification ${notification.id} `);
  }

  it('ignores a forged Resolve press and takes the server’s own Dismiss press', async () => {
    const approval = await shown('Allow rm -rf build?');
    await forgeAction(approval.toast, 'resolve');
    // Sent after the forged one, so it arrives after it: once it has acted, the forged one was handled.
    const line = await pressDismiss(approval);
    assert.match(line, /\[INFO\] notification \S+ dismissed from its toast$/);
    assert.equal(await status(approval.id), 'dismissed');
    assert.doesNotMatch(readLog(desktop.broker.home), /resolved from its toast/);
  });

  it('ignores a forged close: the next toast waits for the real one (maxVisibleToasts 1)', async () => {
    const first = await shown('first in line');
    const nextResponse = await desktop.broker.request('POST', '/v1/notifications', {
      title: 'waits for the slot',
      message: 'm',
      type: 'permission_required',
    });
    const next = (await nextResponse.json()) as Created;
    await forger.forge(NOTIFICATIONS_PATH, NOTIFICATIONS_NAME, 'NotificationClosed', 'uu', [first.toast, 2]);
    await pressDismiss(first);
    await desktop.server.until(() =>
      desktop.server.calls.some((call) => call.summary === 'waits for the slot'),
    );
    assert.ok(desktop.server.closeCalls.includes(first.toast), 'the first toast was closed before the next');
    assert.equal(desktop.server.open.has(first.toast), false, 'never two toasts on screen');

    const nextToast = desktop.server.calls.find((call) => call.summary === 'waits for the slot')!.id;
    await desktop.broker.request('POST', `/v1/notifications/${next.id}/dismiss`);
    await desktop.server.until(() => desktop.server.closeCalls.includes(nextToast));
  });

  it('ignores a forged NameOwnerChanged, and a forger named as the new server in one', async () => {
    const owner = await forger.nameOwner(NOTIFICATIONS_NAME);
    assert.ok(owner);
    const first = await shown('still on');
    await forger.forge(BUS_PATH, BUS, 'NameOwnerChanged', 'sss', [NOTIFICATIONS_NAME, owner, '']);
    assert.match(await pressDismiss(first), /dismissed from its toast$/);
    assert.doesNotMatch(readLog(desktop.broker.home), /toasts (and sounds )?are off/);

    await forger.forge(BUS_PATH, BUS, 'NameOwnerChanged', 'sss', [NOTIFICATIONS_NAME, owner, forger.name]);
    const second = await shown('the forger claims the server');
    await forgeAction(second.toast, 'resolve');
    assert.match(await pressDismiss(second), /dismissed from its toast$/);
    assert.equal(await status(second.id), 'dismissed');
    assert.doesNotMatch(readLog(desktop.broker.home), /toasts (and sounds )?are off|resolved from its toast/);
  });
});

describe('the tray icon and a forged NameOwnerChanged of the panel’s watcher', () => {
  let bus: PrivateBus;
  let watcher: TestWatcher;
  let broker: BrokerProcess;
  let forger: SignalForger;
  let item: string;

  before(async () => {
    bus = await startPrivateBus();
    watcher = await startWatcher(bus.address);
    forger = await startForger(bus.address);
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    broker = await startBroker({ home });
    await waitForLog(home, 'tray icon registered as');
    item = watcher.registered[0]!;
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    forger.stop();
    watcher.stop();
    await bus.stop();
  });

  const registrations = () =>
    readLog(broker.home)
      .split('\n')
      .filter((line) => line.includes('tray icon registered as'));

  it('keeps the icon current when a forger says the panel left', async () => {
    const owner = await forger.nameOwner(WATCHER);
    await forger.forge(BUS_PATH, BUS, 'NameOwnerChanged', 'sss', [WATCHER, owner, '']);
    // A call to the item after the forged signal: the broker has handled the signal when it answers.
    assert.equal(await watcher.property(item, 'Title'), 'Notify');
    await broker.request('POST', '/v1/notifications', {
      title: 'Approve deploy',
      message: 'm',
      type: 'permission_required',
    });
    const deadline = Date.now() + 5000;
    while ((await watcher.property(item, 'Title')) !== 'Notify: 1 waiting' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await watcher.property(item, 'Title'), 'Notify: 1 waiting');
    assert.doesNotMatch(readLog(broker.home), /tray icon is off/);
  });

  it('does not register again when a forger says a new panel arrived', async () => {
    const owner = await forger.nameOwner(WATCHER);
    await forger.forge(BUS_PATH, BUS, 'NameOwnerChanged', 'sss', [WATCHER, owner, forger.name]);
    assert.equal(await watcher.property(item, 'Status'), 'NeedsAttention');
    assert.deepEqual(watcher.registered, [item]);
    assert.equal(registrations().length, 1);
  });
});
