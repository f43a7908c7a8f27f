import { after, before } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess } from './broker-process.js';
import { waitForLog } from './broker-log.js';
import {
  startNotificationServer,
  type ServerOptions,
  type TestNotificationServer,
} from './notification-server.js';
import { startPrivateBus, type PrivateBus } from './session-bus.js';

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
  const home = createTempHome();
  home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  const broker = await startBroker({ home, config });
  await waitForLog(home, 'toasts are on');
  return { bus, server: notifications, broker };
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
