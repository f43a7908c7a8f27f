import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTempHome, startBroker, type TempHome } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startNotificationServer } from '../support/notification-server.js';
import { startPrivateBus } from '../support/session-bus.js';

type Broker = Awaited<ReturnType<typeof startBroker>>;
type PrivateBus = Awaited<ReturnType<typeof startPrivateBus>>;

const create = (broker: Broker, title: string) =>
  broker.request('POST', '/v1/notifications', { title, message: 'm' });

async function waitForLogCount(home: TempHome, text: string, count: number, timeoutMs = 5000) {
  const lines = () =>
    readLog(home)
      .split('\n')
      .filter((line) => line.includes(text)).length;
  const deadline = Date.now() + timeoutMs;
  while (lines() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(lines(), count, `expected ${count} log lines with "${text}"`);
}

const warnings = (log: string) =>
  log.split('\n').filter((line) => /\[WARN\] toasts (and sounds )?are off/.test(line));

/** A broker on a private session bus with no notification server yet; all of it stopped after `run`. */
async function onBusWithoutServer(run: (broker: Broker, bus: PrivateBus, home: TempHome) => Promise<void>) {
  const bus = await startPrivateBus();
  const home = createTempHome();
  home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
  const broker = await startBroker({ home });
  try {
    await run(broker, bus, home);
  } finally {
    await broker.stop();
    home.cleanup();
    await bus.stop();
  }
}

describe('toasts without a desktop', () => {
  it('logs one WARN line and keeps serving when no session bus is set', async () => {
    const broker = await startBroker();
    try {
      const line = await waitForLog(broker.home, 'toasts and sounds are off');
      assert.match(
        line,
        /\[WARN\] toasts and sounds are off: no session D-Bus \(DBUS_SESSION_BUS_ADDRESS is not set\)$/,
      );
      assert.equal((await create(broker, 'stored anyway')).status, 201);
      assert.equal(warnings(readLog(broker.home)).length, 1);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('logs one WARN line when the bus address answers nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-nobus-'));
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(dir, 'missing')}`;
    const broker = await startBroker({ home });
    try {
      // The bus address says this is a desktop session: the sounds still play.
      const line = await waitForLog(home, 'toasts are off');
      assert.match(line, /\[WARN\] toasts are off: cannot connect to the session D-Bus: /);
      assert.equal((await create(broker, 'stored anyway')).status, 201);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(warnings(readLog(home)).length, 1, 'retries must not repeat the warning');
    } finally {
      await broker.stop();
      home.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns once when the bus has no notification server, and toasts once one appears', () =>
    onBusWithoutServer(async (broker, bus, home) => {
      const line = await waitForLog(home, 'toasts are off');
      assert.match(
        line,
        /\[WARN\] toasts are off: no notification server on the session D-Bus \(org\.freedesktop\.Notifications\)$/,
      );
      assert.equal((await create(broker, 'nobody sees this')).status, 201);

      const server = await startNotificationServer(bus.address);
      await waitForLog(home, 'toasts are on: notification server notify-test-server 1.0');
      assert.equal((await create(broker, 'seen now')).status, 201);
      await server.until(() => server.calls.length === 2);
      assert.deepEqual(
        server.calls.map((call) => call.summary),
        ['nobody sees this', 'seen now'],
        'the one stored before the server came is shown once it is there',
      );
      server.stop();
    }));
});

describe('toasts owed while there is no notification server', () => {
  it('show as their type is styled when they are shown, not when they were stored', () =>
    onBusWithoutServer(async (broker, bus, home) => {
      await waitForLog(home, 'toasts are off');
      const stored = await broker.request('POST', '/v1/notifications', {
        title: 'deployed while nobody watched',
        message: 'm',
        type: 'deploy',
      });
      assert.equal(stored.status, 201);
      const styled = await broker.request('PUT', '/v1/types/deploy', { icon: 'emblem-ok' });
      assert.ok(styled.ok, `defining the type answered ${styled.status}`);

      const server = await startNotificationServer(bus.address);
      await server.until(() => server.calls.length === 1);
      assert.equal(server.calls[0]!.summary, 'deployed while nobody watched');
      assert.equal(server.calls[0]!.icon, 'emblem-ok');
      server.stop();
    }));

  it('beyond 500, the newest 500 are shown once a server comes, oldest of them first', () =>
    onBusWithoutServer(async (broker, bus, home) => {
      await waitForLog(home, 'toasts are off');
      // One after another: the order they are owed in is the order they were stored.
      for (let number = 1; number <= 1001; number++) {
        assert.equal((await create(broker, `stored ${number}`)).status, 201);
      }
      const server = await startNotificationServer(bus.address);
      await server.until(() => server.calls.length > 0);
      assert.equal(server.calls[0]!.summary, 'stored 502', 'the oldest of the newest 500 comes first');
      server.stop();
    }));
});

describe('toasts when the desktop goes and comes back', () => {
  it('warns when the server leaves and resumes when it returns', async () => {
    const bus = await startPrivateBus();
    const first = await startNotificationServer(bus.address);
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    const broker = await startBroker({ home });
    try {
      await waitForLog(home, 'toasts are on');
      assert.equal((await create(broker, 'waiting on screen')).status, 201);
      const handled = (await (await create(broker, 'handled while gone')).json()) as { id: string };
      await first.until(() => first.calls.length === 2);
      first.stop();
      await waitForLog(home, '[WARN] toasts are off: the notification server left the session D-Bus');
      assert.equal((await create(broker, 'while gone')).status, 201);
      await broker.request('PATCH', `/v1/notifications/${handled.id}`, { status: 'resolved' });

      const second = await startNotificationServer(bus.address);
      await waitForLogCount(home, 'toasts are on', 2);
      // The toasts the old server took with it and the one stored meanwhile, if still active.
      await second.until(() => second.calls.length === 2);
      assert.deepEqual(
        second.calls.map((call) => call.summary),
        ['waiting on screen', 'while gone'],
      );
      assert.equal((await create(broker, 'back again')).status, 201);
      await second.until(() => second.calls.length === 3);
      assert.equal(second.calls[2]!.summary, 'back again');
      second.stop();
    } finally {
      await broker.stop();
      home.cleanup();
      await bus.stop();
    }
  });

  it('warns when the bus itself dies and reconnects when it is back at the same address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-busloss-'));
    const socket = join(dir, 'bus');
    let bus = await startPrivateBus(socket);
    const first = await startNotificationServer(bus.address);
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    const broker = await startBroker({ home });
    try {
      await waitForLog(home, 'toasts are on');
      first.stop();
      await bus.stop();
      await waitForLog(home, '[WARN] toasts are off: ');
      assert.equal((await create(broker, 'no bus')).status, 201);

      bus = await startPrivateBus(socket);
      const second = await startNotificationServer(bus.address);
      const lines = () =>
        readLog(home)
          .split('\n')
          .filter((line) => line.includes('toasts are on')).length;
      const deadline = Date.now() + 8000;
      while (lines() < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(lines(), 2, 'toasts come back after the reconnect');
      assert.equal((await create(broker, 'bus is back')).status, 201);
      await second.until(() => second.calls.length === 2);
      assert.deepEqual(
        second.calls.map((call) => call.summary),
        ['no bus', 'bus is back'],
      );
      second.stop();
    } finally {
      await broker.stop();
      home.cleanup();
      await bus.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
