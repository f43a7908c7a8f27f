import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createTempHome, startBroker } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { openedFile, useDesktop, useTrayDesktop } from '../support/desktop-broker.js';
import { startNotificationServer } from '../support/notification-server.js';
import { startPrivateBus } from '../support/session-bus.js';
import { startWatcher, type MenuNode } from '../support/status-notifier-watcher.js';
import { waitFor } from '../support/wait-for.js';
import { secretOf, sessionHeader } from '../support/web-session.js';
import type { TempHome } from '../support/broker-process.js';

const LAUNCHER = /^file:\/\/\/.+\/notify\/run\/open-[0-9a-f]{32}\.html$/;
const REFRESH = /content="0;url=(http:\/\/127\.0\.0\.1:\d+\/login\?code=([A-Za-z0-9_-]{43}))"/;

const labels = (node: MenuNode): string[] =>
  node[2].map((child) =>
    child.value[1]['type']?.value === 'separator' ? '---' : String(child.value[1]['label']?.value),
  );

/** The URLs the desktop's $BROWSER was started with, once there are `count`. */
async function opened(home: TempHome, count: number): Promise<string[]> {
  return waitFor(() => {
    const file = openedFile(home);
    // Only whole lines: the shell creates the file before printf has written the URL into it.
    const urls = existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1) : [];
    return urls.length >= count && urls;
  }, `${count} URL(s) opened by $BROWSER`);
}

/**
 * $BROWSER was given a private launcher file, never the link: the link it forwards to signs in once,
 * and the file goes with that use. Resolves to the code, to look for where it must not be.
 */
async function signsIn(launcher: string): Promise<string> {
  assert.match(launcher, LAUNCHER);
  const path = fileURLToPath(launcher);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
  const [, link, code] = REFRESH.exec(readFileSync(path, 'utf8'))!;
  const secret = secretOf(await fetch(link!, { redirect: 'manual' }));
  const session = await fetch(new URL('/v1/web/session', link), { headers: sessionHeader(secret) });
  assert.equal(session.status, 200, 'the page lands signed in');
  assert.equal(existsSync(path), false, 'the launcher is removed once its link is used');
  assert.equal((await fetch(link!, { redirect: 'manual' })).status, 401);
  return code!;
}

describe('the tray opens the web page', () => {
  const desktop = useTrayDesktop();

  it('"Open Notify" opens a one-time sign-in link with $BROWSER, through a private launcher file', async () => {
    const menu = await desktop.watcher.layout(desktop.item);
    const entry = menu[2].find((child) => child.value[1]['label']?.value === 'Open Notify');
    assert.ok(entry, labels(menu).join(' | '));
    await desktop.watcher.click(desktop.item, entry.value[0]);
    const [url] = await opened(desktop.broker.home, 1);
    const code = await signsIn(url!);
    await waitForLog(desktop.broker.home, 'web page: opened from the tray with ');
    assert.ok(!readLog(desktop.broker.home).includes(code), 'the code is not logged');
  });
});

describe('a click on a toast opens the web page', () => {
  const desktop = useDesktop();

  it('the toast offers the default action; invoking it opens a sign-in launcher and changes nothing', async () => {
    const created = (await (
      await desktop.broker.request('POST', '/v1/notifications', { title: 'Tests failed', message: 'm' })
    ).json()) as { id: string };
    await desktop.server.until(() => desktop.server.calls.length === 1);
    const call = desktop.server.calls[0]!;
    assert.deepEqual(call.actions.slice(0, 2), ['default', 'Open Notify']);
    desktop.server.invokeAction(call.id, 'default');
    const [url] = await opened(desktop.broker.home, 1);
    await signsIn(url!);
    await waitForLog(desktop.broker.home, 'web page: opened from a toast with ');
    const after = (await (await desktop.broker.request('GET', `/v1/notifications/${created.id}`)).json()) as {
      status: string;
    };
    assert.equal(after.status, 'active');
  });
});

describe('without a program to open it with', () => {
  it('the tray has no "Open Notify" and toasts no default action', async () => {
    const bus = await startPrivateBus();
    const server = await startNotificationServer(bus.address);
    const watcher = await startWatcher(bus.address);
    const home = createTempHome();
    const noPrograms = mkdtempSync(join(tmpdir(), 'notify-no-opener-'));
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    home.env['PATH'] = noPrograms;
    const broker = await startBroker({ home });
    try {
      await waitForLog(home, 'tray icon registered as');
      const menu = await watcher.layout(watcher.registered[0]!);
      assert.ok(!labels(menu).includes('Open Notify'), labels(menu).join(' | '));
      await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' });
      await server.until(() => server.calls.length === 1);
      assert.deepEqual(server.calls[0]!.actions, [
        'resolve',
        'Resolve',
        'dismiss',
        'Dismiss',
        'snooze',
        'Snooze 15 min',
      ]);
    } finally {
      await broker.stop();
      home.cleanup();
      rmSync(noPrograms, { recursive: true, force: true });
      watcher.stop();
      server.stop();
      await bus.stop();
    }
  });
});
