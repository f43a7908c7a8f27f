import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import {
  createTempHome,
  startBroker,
  type BrokerProcess,
  type StartOptions,
  type TempHome,
} from './broker-process.js';
import { waitForLog } from './broker-log.js';
import {
  startNotificationServer,
  type ServerOptions,
  type TestNotificationServer,
} from './notification-server.js';
import { startDunst, type Dunst, type DunstOptions } from './dunst.js';
import { startPrivateBus, type PrivateBus } from './session-bus.js';
import { startWatcher, type TestWatcher } from './status-notifier-watcher.js';

export interface DesktopSetup {
  bus: PrivateBus;
  server: TestNotificationServer;
  broker: BrokerProcess;
}

/** A broker whose session bus is a private one with our test notification server on it. */
export async function startDesktop(
  config: Record<string, unknown> = {},
  server: ServerOptions = {},
): Promise<DesktopSetup> {
  const bus = await startPrivateBus();
  const notifications = await startNotificationServer(bus.address, server);
  const home = desktopHome(bus.address);
  const broker = await startBroker({ home, config });
  await waitForLog(home, 'toasts are on');
  return { bus, server: notifications, broker };
}

/**
 * A temp HOME on this bus whose $BROWSER writes the URL it is given (a sign-in launcher file's) to
 * `openedFile(home)`: every desktop broker can open the web page (the tray's "Open Notify", a click on
 * a toast), whether or not this machine has xdg-open.
 */
function desktopHome(busAddress: string): TempHome {
  const home = createTempHome();
  home.env['DBUS_SESSION_BUS_ADDRESS'] = busAddress;
  const browser = join(home.home, 'browser');
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${openedFile(home)}"\n`);
  chmodSync(browser, 0o755);
  home.env['BROWSER'] = browser;
  return home;
}

/** Where the desktop's $BROWSER writes each URL it was asked to open, one a line. */
export function openedFile(home: TempHome): string {
  return join(home.home, 'opened-urls');
}

export async function stopDesktop(setup: DesktopSetup): Promise<void> {
  await setup.broker.stop();
  setup.broker.home.cleanup();
  setup.server.stop();
  await setup.bus.stop();
}

/** One desktop for the enclosing suite. */
export function useDesktop(config: Record<string, unknown> = {}, server: ServerOptions = {}): DesktopSetup {
  const setup = {} as DesktopSetup;
  before(async () => Object.assign(setup, await startDesktop(config, server)));
  after(async () => stopDesktop(setup));
  return setup;
}

export interface DunstDesktop {
  bus: PrivateBus;
  dunst: Dunst;
  broker: BrokerProcess;
}

/**
 * One broker for the enclosing suite whose toasts go to a real dunst (under Xvfb) on a private bus;
 * `broker` starts another entry point or adds environment variables (a driven clock, stand-in players).
 */
export function useDunstDesktop(
  options: DunstOptions = {},
  broker: Pick<StartOptions, 'script' | 'env' | 'config'> = {},
): DunstDesktop {
  const setup = {} as DunstDesktop;
  before(async () => {
    const bus = await startPrivateBus();
    const dunst = await startDunst(bus.address, options);
    const home = desktopHome(bus.address);
    const started = await startBroker({ home, ...broker });
    await waitForLog(home, 'toasts are on: notification server dunst');
    Object.assign(setup, { bus, dunst, broker: started });
  });
  after(async () => {
    await setup.broker.stop();
    setup.broker.home.cleanup();
    await setup.dunst.stop();
    await setup.bus.stop();
  });
  return setup;
}

export interface TrayDesktop extends DesktopSetup {
  watcher: TestWatcher;
  /** The bus name the broker's tray item registered with the watcher. */
  item: string;
}

/** One broker for the enclosing suite with a notification server and a panel's watcher on its bus. */
export function useTrayDesktop(): TrayDesktop {
  const setup = {} as TrayDesktop;
  before(async () => {
    const bus = await startPrivateBus();
    const server = await startNotificationServer(bus.address);
    const watcher = await startWatcher(bus.address);
    const home = desktopHome(bus.address);
    const broker = await startBroker({ home });
    await waitForLog(home, 'tray icon registered as');
    Object.assign(setup, { bus, server, watcher, broker, item: watcher.registered[0]! });
  });
  after(async () => {
    await setup.broker.stop();
    setup.broker.home.cleanup();
    setup.watcher.stop();
    setup.server.stop();
    await setup.bus.stop();
  });
  return setup;
}
