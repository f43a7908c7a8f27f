import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess } from '../support/broker-process.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startNotificationServer, type TestNotificationServer } from '../support/notification-server.js';
import { startPrivateBus, type PrivateBus } from '../support/session-bus.js';
import { createStandInPlayers, type StandInPlayers } from '../support/stand-in-player.js';
import { startWatcher, type MenuNode, type TestWatcher } from '../support/status-notifier-watcher.js';
import { waitFor } from '../support/wait-for.js';
import { startXDesktop, tmuxServer, type TmuxServer, type XDesktop } from '../support/x-desktop.js';
import { HOOK } from '../hooks/support.js';
import { launchChromium } from '../web/support/browser.js';
import { signInLink } from '../web/support/sign-in.js';
import type { NotificationDto } from '../../src/domain/notification.js';
import { SOUND_INTERVAL_MS } from '../../src/domain/sound-policy.js';

/**
 * Sounds closer together than SOUND_INTERVAL_MS are one burst and play once: a test that counts sounds
 * first lets the last one's interval pass, so only the hold can keep a sound back.
 */
const pastSoundInterval = () => new Promise((resolve) => setTimeout(resolve, SOUND_INTERVAL_MS + 100));

/**
 * Issue 34's proof on a real desktop: a private tmux server with two sessions, windows and panes, its
 * client attached in an xterm under Xvfb (openbox keeps EWMH's active window), a second xterm beside
 * it, and the real hook adapter run inside pane %3.
 */
describe('focus with a real tmux in an xterm under Xvfb', () => {
  let xd: XDesktop;
  let tm: TmuxServer;
  let bus: PrivateBus;
  let server: TestNotificationServer;
  let watcher: TestWatcher;
  let players: StandInPlayers;
  let broker: BrokerProcess;
  let agents: number;
  let other: number;
  let hookRuns = 0;

  before(async () => {
    xd = await startXDesktop();
    tm = tmuxServer(xd.dir, xd.display);
    players = createStandInPlayers(['pw-play', 'paplay', 'aplay', 'ffplay']);
    bus = await startPrivateBus();
    server = await startNotificationServer(bus.address);
    watcher = await startWatcher(bus.address);
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    home.env['PATH'] = `${players.folder}:/usr/bin:/bin`;
    // A browser the broker could open the page with, so toasts offer Open Notify too.
    home.env['BROWSER'] = '/bin/true';
    broker = await startBroker({ home, config: { focusGraceSeconds: 600 } });
    await waitForLog(home, 'tray icon registered as');
    // Session "one" is made by the client in the xterm, so its panes know the xterm ($WINDOWID).
    agents = await xd.xterm('agents', [
      'tmux',
      '-S',
      tm.socket,
      '-f',
      join(xd.dir, 'tmux.conf'),
      'new-session',
      '-s',
      'one',
    ]);
    await waitFor(
      () =>
        tm.tmux('list-clients').then(
          (out) => out.trim() !== '',
          () => false,
        ),
      'the client',
    );
    await tm.tmux('new-window', '-t', 'one'); // %1
    await tm.tmux('split-window', '-t', 'one:1'); // %2
    await tm.tmux('split-window', '-t', 'one:1'); // %3
    await tm.tmux('new-session', '-d', '-s', 'two'); // %4
    await tm.tmux('switch-client', '-t', 'two');
    other = await xd.xterm('other', ['sleep', '600']);
  });

  after(async () => {
    await broker?.stop();
    broker?.home.cleanup();
    await tm?.kill();
    await xd?.stop();
    watcher?.stop();
    server?.stop();
    await bus?.stop();
    players?.cleanup();
  });

  /** Runs the real Claude hook adapter inside pane %3, as an agent there would, and waits for its log line. */
  async function hookInPane3(payload: Record<string, unknown>): Promise<void> {
    hookRuns += 1;
    const file = join(xd.dir, `payload-${hookRuns}.json`);
    writeFileSync(file, JSON.stringify({ cwd: '/tmp', transcript_path: '/tmp/t.jsonl', ...payload }));
    const env = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME']
      .map((name) => `${name}='${broker.home.env[name]}'`)
      .join(' ');
    const script = join(xd.dir, `hook-${hookRuns}.sh`);
    writeFileSync(script, `${env} '${process.execPath}' '${HOOK}' claude < '${file}'\n`);
    const before = readLog(broker.home).split('hook claude').length;
    await tm.tmux('send-keys', '-t', '%3', `sh ${script}`, 'Enter');
    await waitFor(
      () => readLog(broker.home).split('hook claude').length > before,
      `the hook's log line (run ${hookRuns})`,
    );
  }

  const ask = (session: string) =>
    hookInPane3({
      session_id: session,
      hook_event_name: 'Notification',
      message: `Claude needs your permission to use Bash (${session})`,
      notification_type: 'permission_prompt',
    });

  async function byKey(session: string): Promise<NotificationDto> {
    const response = await broker.request('GET', `/v1/notifications?status=active`);
    const list = (await response.json()) as NotificationDto[];
    const found = list.find((n) => n.key === `claude-code:${session}`);
    assert.ok(found, `no active notification for ${session}`);
    return found;
  }

  /** Elsewhere: the client shows session two and the other xterm has the focus. */
  async function lookElsewhere(): Promise<void> {
    await tm.tmux('switch-client', '-t', 'two');
    await xd.activate(other);
    assert.equal((await tm.client()).session, 'two');
  }

  async function landedOnPane3(): Promise<void> {
    await waitFor(async () => (await tm.client()).pane === '%3', 'the client to show pane %3');
    const client = await tm.client();
    assert.equal(client.session, 'one');
    await waitFor(async () => (await xd.activeWindow()) === agents, 'the agents xterm to be active');
  }

  it('records the pane a hook runs in as the notification origin: its tty, the tmux pane, the xterm', async () => {
    await ask('pane3-first');
    const n = await byKey('pane3-first');
    const tty = (await tm.tmux('display-message', '-p', '-t', '%3', '#{pane_tty}')).trim();
    assert.deepEqual(n.origin, [
      { kind: 'tty', path: tty },
      { kind: 'tmux', socket: tm.socket, pane: '%3' },
      { kind: 'x11', window: agents, display: xd.display },
    ]);
  });

  it('POST /v1/notifications/{id}/focus switches the attached client to pane %3 and raises its xterm', async () => {
    await lookElsewhere();
    const n = await byKey('pane3-first');
    const response = await broker.request('POST', `/v1/notifications/${n.id}/focus`);
    assert.deepEqual(
      [response.status, await response.json()],
      [200, { focused: true, how: 'tmux', outer: 'x11' }],
    );
    await landedOnPane3();
    await waitForLog(broker.home, `notification ${n.id} focused (tmux and x11) from the API`);
  });

  it('a click on the toast (its default action, labelled Go to the agent) lands on pane %3; Open Notify stays a button', async () => {
    await lookElsewhere();
    const n = await byKey('pane3-first');
    const toast = server.calls.find((call) => call.body.includes('pane3-first'));
    assert.ok(toast, 'the notification had a toast');
    assert.deepEqual(toast.actions.slice(0, 4), ['default', 'Go to the agent', 'open', 'Open Notify']);
    server.invokeAction(toast.id, 'default');
    await landedOnPane3();
    await waitForLog(broker.home, `notification ${n.id} focused (tmux and x11) from a toast`);
  });

  it("the tray's Go to the agent lands on pane %3", async () => {
    await lookElsewhere();
    const n = await byKey('pane3-first');
    const menu = await watcher.layout(watcher.registered[0]!);
    const item = menu[2]
      .map((child) => child.value)
      .find((node) => String(node[1]['label']?.value).includes(n.title));
    assert.ok(item, 'the notification is in the tray menu');
    const go = (item as MenuNode)[2]
      .map((child) => child.value)
      .find((node) => node[1]['label']?.value === 'Go to the agent');
    assert.ok(go, 'its submenu offers Go to the agent');
    await watcher.click(watcher.registered[0]!, go[0]);
    await landedOnPane3();
  });

  it('the web page shows the origin, and its Go to the agent lands on pane %3', async () => {
    await lookElsewhere();
    const n = await byKey('pane3-first');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(await signInLink(broker));
      await page.goto(`${broker.baseUrl}/#/n/${n.id}`);
      await page
        .getByText(`tmux pane %3 (${tm.socket}), in X11 window 0x${agents.toString(16)} on ${xd.display}`)
        .waitFor();
      await page.getByRole('button', { name: /^Go to the agent/ }).click();
      await page.getByText('Went to the agent (tmux)').waitFor();
    } finally {
      await browser.close();
    }
    await landedOnPane3();
  });

  it('while pane %3 is focused a new request from it shows no toast and plays no sound, and is dropped when it ends', async () => {
    await tm.tmux('switch-client', '-t', '%3');
    await xd.activate(agents);
    await waitFor(async () => (await tm.client()).flags.includes('focused'), 'tmux to see the xterm focused');
    await pastSoundInterval();
    const toasts = server.calls.length;
    const sounds = players.calls().length;
    await ask('pane3-quiet');
    const n = await byKey('pane3-quiet');
    await waitForLog(broker.home, `notification ${n.id}: its place has focus; toast and sound wait 600 s`);
    // The person answers in the terminal: the agent's next prompt ends the request.
    await hookInPane3({ session_id: 'pane3-quiet', hook_event_name: 'UserPromptSubmit', prompt: 'yes' });
    await waitForLog(
      broker.home,
      `notification ${n.id}: no toast or sound, it ended while its place had focus`,
    );
    assert.equal(server.calls.length, toasts, 'no toast was shown');
    assert.equal(players.calls().length, sounds, 'no sound played');
  });

  it('PATCH /v1/settings changes the wait and switches quiet-while-looking off at once, without a restart', async () => {
    await tm.tmux('switch-client', '-t', '%3');
    await xd.activate(agents);
    await waitFor(async () => (await tm.client()).flags.includes('focused'), 'tmux to see the xterm focused');
    const shorter = await broker.request('PATCH', '/v1/settings', { focusGraceSeconds: 420 });
    assert.equal(shorter.status, 200);
    assert.equal(((await shorter.json()) as { focusGraceSeconds: number }).focusGraceSeconds, 420);
    await ask('pane3-wait');
    const waiting = await byKey('pane3-wait');
    await waitForLog(
      broker.home,
      `notification ${waiting.id}: its place has focus; toast and sound wait 420 s`,
    );
    const off = await broker.request('PATCH', '/v1/settings', { quietWhileFocused: false });
    assert.equal(off.status, 200);
    try {
      await ask('pane3-off');
      await server.until(() => server.calls.some((call) => call.body.includes('pane3-off')));
    } finally {
      await broker.request('PATCH', '/v1/settings', { quietWhileFocused: null, focusGraceSeconds: 600 });
    }
  });

  it('with another pane focused, a request from pane %3 toasts and sounds at once', async () => {
    await tm.tmux('select-pane', '-t', '%2');
    await xd.activate(agents);
    await waitFor(async () => (await tm.client()).pane === '%2', 'the client to show pane %2');
    await pastSoundInterval();
    const sounds = players.calls().length;
    await ask('pane3-loud');
    await server.until(() => server.calls.some((call) => call.body.includes('pane3-loud')));
    assert.deepEqual((await byKey('pane3-loud')).origin?.[1], {
      kind: 'tmux',
      socket: tm.socket,
      pane: '%3',
    });
    await players.waitForCalls(sounds + 1);
  });
});
