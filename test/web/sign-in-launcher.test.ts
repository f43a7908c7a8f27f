import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess, type TempHome } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { followingBrowser, type FollowingBrowser } from '../support/following-browser.js';
import { startNotificationServer, type TestNotificationServer } from '../support/notification-server.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import { startProcWatcher, type ProcWatcher } from '../support/proc-watcher.js';
import { startPrivateBus, type PrivateBus } from '../support/session-bus.js';
import { launchChromium } from './support/browser.js';

const LAUNCHER = /^file:\/\/\/.+\/notify\/open-[0-9a-f]{32}\.html$/;
const REFRESH =
  /<meta http-equiv="refresh" content="0;url=(http:\/\/127\.0\.0\.1:\d+\/login\?code=([A-Za-z0-9_-]{43}))">/;

/** A temp HOME with a private $XDG_RUNTIME_DIR, as a desktop login has. */
function homeWithRuntimeDir(): TempHome {
  const home = createTempHome();
  const runtime = join(home.home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  home.env['XDG_RUNTIME_DIR'] = runtime;
  return home;
}

/**
 * Watches, as another user, while `opening` hands a sign-in link to the browser: the browser got a
 * private launcher file, never the link; nobody else ever saw the code; the link signed in once and
 * its file went with it.
 */
async function signsInUnseen(
  broker: BrokerProcess,
  browser: FollowingBrowser,
  opening: () => Promise<void>,
): Promise<void> {
  const watcher: ProcWatcher = await startProcWatcher();
  try {
    const opened = opening();
    const args = await browser.args();
    // The other user did read the browser's command line while the link was live...
    await watcher.sees(args.join(' '));
    // ...and found no sign-in code there, nor anywhere else.
    const codes = () => watcher.seen().filter((line) => /code=[A-Za-z0-9_-]{43}/.test(line));
    assert.deepEqual(codes(), [], 'another user read a sign-in link');
    assert.equal(args.length, 1, args.join(' '));
    const launcher = args[0]!;
    assert.match(launcher, LAUNCHER);

    const path = fileURLToPath(launcher);
    assert.equal(dirname(path), join(broker.home.env['XDG_RUNTIME_DIR']!, 'notify'));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    const [, link, code] = REFRESH.exec(readFileSync(path, 'utf8'))!;
    assert.equal(new URL(link!).port, String(broker.port));

    browser.proceed();
    assert.equal(await browser.status(), 303, 'the browser signed in with the link the file holds');
    await opened;
    assert.equal(existsSync(path), false, 'the launcher is removed once its link is used');
    assert.equal((await fetch(link!, { redirect: 'manual' })).status, 401, 'the code was used up');
    const sessions = (await (await broker.request('GET', '/v1/web/sessions')).json()) as {
      sessions: unknown[];
    };
    assert.equal(sessions.sessions.length, 1);

    const leaks = watcher.seen().filter((line) => line.includes(code!));
    assert.deepEqual([...codes(), ...leaks], [], 'another user read the sign-in code');
    assert.ok(!readLog(broker.home).includes(code!), 'the code is not logged');
  } finally {
    await watcher.stop();
  }
}

describe('notifyctl open never puts the sign-in link on a command line', () => {
  let broker: BrokerProcess;
  before(async () => {
    broker = await startBroker({ home: homeWithRuntimeDir() });
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  it('another user watching /proc sees only the launcher file, and the person signs in', async () => {
    const browser = followingBrowser(broker.home.home);
    await signsInUnseen(broker, browser, async () => {
      const result = await runNotifyctl(['open'], { env: { ...broker.home.env, BROWSER: browser.program } });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `Opened the Notify web page with ${browser.program}.\n`);
    });
  });
});

describe("the broker's own opening (a click on a toast) never puts the link on a command line", () => {
  let bus: PrivateBus;
  let server: TestNotificationServer;
  let broker: BrokerProcess;
  let browser: FollowingBrowser;
  before(async () => {
    bus = await startPrivateBus();
    server = await startNotificationServer(bus.address);
    const home = homeWithRuntimeDir();
    browser = followingBrowser(home.home);
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    home.env['BROWSER'] = browser.program;
    broker = await startBroker({ home });
    await waitForLog(home, 'toasts are on');
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    server.stop();
    await bus.stop();
  });

  it('another user watching /proc sees only the launcher file, and the person signs in', async () => {
    await broker.request('POST', '/v1/notifications', { title: 'Tests failed', message: 'm' });
    await server.until(() => server.calls.length === 1);
    await signsInUnseen(broker, browser, async () => {
      server.invokeAction(server.calls[0]!.id, 'default');
      await waitForLog(broker.home, `web page: opened from a toast with ${browser.program}`);
    });
  });
});

describe('the launcher in Chromium', () => {
  let broker: BrokerProcess;
  before(async () => {
    broker = await startBroker({ home: homeWithRuntimeDir() });
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
  });

  it('forwards from file:// to the sign-in link and lands on the signed-in page', async () => {
    const recorder = join(broker.home.home, 'recording-browser');
    writeFileSync(recorder, `#!/bin/sh\nprintf '%s' "$1" > "${recorder}.url"\n`);
    chmodSync(recorder, 0o755);
    const result = await runNotifyctl(['open'], { env: { ...broker.home.env, BROWSER: recorder } });
    assert.equal(result.code, 0, result.stderr);
    const launcher = readFileSync(`${recorder}.url`, 'utf8');
    assert.match(launcher, LAUNCHER);
    const chromium = await launchChromium();
    try {
      const page = await (await chromium.newContext()).newPage();
      await page.goto(launcher);
      await page.waitForURL((url) => url.origin === broker.baseUrl);
      await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
      assert.equal(existsSync(fileURLToPath(launcher)), false, 'the launcher is removed once used');
    } finally {
      await chromium.close();
    }
  });
});
