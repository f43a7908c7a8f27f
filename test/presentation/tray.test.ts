import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createTempHome,
  readConfigFile,
  startBroker,
  type BrokerProcess,
} from '../support/broker-process.js';
import { useTrayDesktop } from '../support/desktop-broker.js';
import { readLog, waitForLog } from '../support/broker-log.js';
import { DbusConnection } from '../../src/presentation/dbus.js';
import { startPrivateBus, type PrivateBus } from '../support/session-bus.js';
import { startWatcher, type MenuNode, type TestWatcher } from '../support/status-notifier-watcher.js';

/** Labels of a menu node's children, `---` for a separator. */
const labels = (node: MenuNode): string[] =>
  node[2].map((child) =>
    child.value[1]['type']?.value === 'separator' ? '---' : String(child.value[1]['label']?.value),
  );

const childByLabel = (node: MenuNode, label: string): MenuNode => {
  const found = node[2].find((child) => child.value[1]['label']?.value === label);
  assert.ok(found, `no menu entry "${label}" in ${labels(node).join(' | ')}`);
  return found.value;
};

/** A panel that quits: waits until the bus has let its name go, so the next one can own it. */
async function untilNameIsFree(address: string, name: string): Promise<void> {
  const probe = await DbusConnection.open(address);
  try {
    await eventually(async () => assert.equal(await probe.nameOwner(name), undefined));
  } finally {
    probe.close();
  }
}

async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('the tray icon (StatusNotifierItem) with a watcher on the bus', () => {
  const desktop = useTrayDesktop();

  it('registers an item that says nothing needs attention when nothing is active', async () => {
    assert.match(desktop.item, /^org\.kde\.StatusNotifierItem-\d+-1$/);
    assert.equal(await desktop.watcher.property(desktop.item, 'Status'), 'Active');
    assert.equal(await desktop.watcher.property(desktop.item, 'IconName'), 'emblem-default');
    assert.equal(await desktop.watcher.property(desktop.item, 'Title'), 'Notify');
    assert.equal(await desktop.watcher.property(desktop.item, 'Id'), 'notify');
    assert.equal(await desktop.watcher.property(desktop.item, 'Menu'), '/MenuBar');
    const tooltip = (await desktop.watcher.property(desktop.item, 'ToolTip')) as unknown[];
    assert.equal(tooltip[2], 'Nothing needs your attention');
    assert.deepEqual(labels(await desktop.watcher.layout(desktop.item)), [
      'Nothing needs your attention',
      '---',
      'Open Notify',
      'Pause notifications',
      'Do not disturb',
      'Quit Notify',
    ]);
  });

  it('needs attention with the count, the waiting agents and one menu entry per active notification', async () => {
    // News, not a request: listed in the menu, never counted as waiting.
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Build finished',
      message: 'm',
      agent: 'gemini',
      type: 'completed',
    });
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Approve deploy',
      message: 'm',
      type: 'input_required',
      agent: 'claude',
    });
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Tests failed',
      message: 'm',
      type: 'input_required',
      agent: 'codex',
    });
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Pick a name',
      message: 'm',
      type: 'input_required',
      agent: 'claude',
    });
    await eventually(async () =>
      assert.equal(await desktop.watcher.property(desktop.item, 'Status'), 'NeedsAttention'),
    );
    // Hosts that ignore AttentionIconName draw IconName: it must not be the all-clear check.
    assert.equal(await desktop.watcher.property(desktop.item, 'IconName'), 'dialog-warning');
    assert.equal(await desktop.watcher.property(desktop.item, 'AttentionIconName'), 'dialog-warning');
    await eventually(async () =>
      assert.equal(await desktop.watcher.property(desktop.item, 'Title'), 'Notify: 3 waiting'),
    );
    const tooltip = (await desktop.watcher.property(desktop.item, 'ToolTip')) as unknown[];
    assert.equal(tooltip[2], '3 notifications wait');
    assert.equal(tooltip[3], 'Waiting: claude (2), codex');
    const menu = await desktop.watcher.layout(desktop.item);
    assert.deepEqual(labels(menu).slice(0, 4), [
      'claude: Pick a name',
      'codex: Tests failed',
      'claude: Approve deploy',
      'gemini: Build finished',
    ]);
    assert.deepEqual(labels(childByLabel(menu, 'codex: Tests failed')), ['Resolve', 'Dismiss']);
  });

  it('resolves and dismisses a notification from its menu entry', async () => {
    const list = async () =>
      (await (await desktop.broker.request('GET', '/v1/notifications?status=active')).json()) as {
        id: string;
        title: string;
      }[];
    let menu = await desktop.watcher.layout(desktop.item);
    await desktop.watcher.click(
      desktop.item,
      childByLabel(childByLabel(menu, 'codex: Tests failed'), 'Resolve')[0],
    );
    await eventually(async () =>
      assert.equal(
        (await list()).some((n) => n.title === 'Tests failed'),
        false,
      ),
    );
    await waitForLog(desktop.broker.home, 'tray menu: Resolve');

    menu = await desktop.watcher.layout(desktop.item);
    await eventually(async () => {
      menu = await desktop.watcher.layout(desktop.item);
      assert.equal(labels(menu).includes('codex: Tests failed'), false);
    });
    await desktop.watcher.click(
      desktop.item,
      childByLabel(childByLabel(menu, 'claude: Pick a name'), 'Dismiss')[0],
    );
    await eventually(async () =>
      assert.deepEqual(
        (await list()).map((n) => n.title),
        ['Approve deploy', 'Build finished'],
      ),
    );
    // Each entry did what it says: a dismissed one is not counted as done, nor the other way round.
    const titlesOf = async (status: string) =>
      (
        (await (await desktop.broker.request('GET', `/v1/notifications?status=${status}`)).json()) as {
          title: string;
        }[]
      ).map((n) => n.title);
    assert.ok((await titlesOf('resolved')).includes('Tests failed'), 'Resolve resolves');
    assert.ok((await titlesOf('dismissed')).includes('Pick a name'), 'Dismiss dismisses');
  });

  it('writes pause and do not disturb to config.json and shows them checked', async () => {
    let menu = await desktop.watcher.layout(desktop.item);
    await desktop.watcher.click(desktop.item, childByLabel(menu, 'Pause notifications')[0]);
    await eventually(async () =>
      assert.equal(readConfigFile(desktop.broker.home)['pauseNotifications'], true),
    );
    // Applied with the write, not on the watcher's next look at the file.
    const settings = (await (await desktop.broker.request('GET', '/v1/settings')).json()) as Record<
      string,
      unknown
    >;
    assert.equal(settings['pauseNotifications'], true);
    await desktop.watcher.click(desktop.item, childByLabel(menu, 'Do not disturb')[0]);
    await eventually(async () => assert.equal(readConfigFile(desktop.broker.home)['doNotDisturb'], true));
    assert.equal(
      typeof readConfigFile(desktop.broker.home)['authToken'],
      'string',
      'the rest of the file is kept',
    );
    await eventually(async () => {
      menu = await desktop.watcher.layout(desktop.item);
      assert.equal(childByLabel(menu, 'Pause notifications')[1]['toggle-state']?.value, 1);
      assert.equal(childByLabel(menu, 'Do not disturb')[1]['toggle-state']?.value, 1);
    });
  });

  it('escapes agent names in the tooltip, which panels such as KDE render as rich text', async () => {
    await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Look here',
      message: 'm',
      agent: `<a href="https://example.com">Eve</a> & 'Mallory'`,
      type: 'input_required',
    });
    await eventually(async () =>
      assert.equal(await desktop.watcher.property(desktop.item, 'Title'), 'Notify: 2 waiting'),
    );
    const tooltip = (await desktop.watcher.property(desktop.item, 'ToolTip')) as unknown[];
    assert.equal(
      tooltip[3],
      'Waiting: &lt;a href=&quot;https://example.com&quot;&gt;Eve&lt;/a&gt; &amp; &#39;Mallory&#39;, claude',
    );
    // Menu labels are plain text in dbusmenu: shown as sent.
    assert.equal(
      labels(await desktop.watcher.layout(desktop.item))[0],
      `<a href="https://example.com">Eve</a> & 'Mallory': Look here`,
    );
  });

  it('stops the broker cleanly from Quit', async () => {
    const menu = await desktop.watcher.layout(desktop.item);
    const exited = new Promise<number | null>((resolve) =>
      desktop.broker.child.once('exit', (code) => resolve(code)),
    );
    await desktop.watcher.click(desktop.item, childByLabel(menu, 'Quit Notify')[0]);
    assert.equal(await exited, 0);
  });
});

describe('the tray icon when the panel starts after the broker, or restarts', () => {
  let bus: PrivateBus;
  let broker: BrokerProcess;
  let first: TestWatcher;
  let item: string;

  before(async () => {
    bus = await startPrivateBus();
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    broker = await startBroker({ home });
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    first?.stop();
    await bus.stop();
  });

  const create = (title: string) =>
    broker.request('POST', '/v1/notifications', {
      title,
      message: 'm',
      agent: 'claude',
      type: 'input_required',
    });

  it('logs one WARN line without a watcher and the broker keeps serving', async () => {
    const line = await waitForLog(broker.home, 'tray icon is off');
    assert.match(
      line,
      /\[WARN\] tray icon is off: no StatusNotifierWatcher on the session D-Bus \(org\.kde\.StatusNotifierWatcher\)$/,
    );
    assert.equal((await create('Waited while no panel ran')).status, 201);
  });

  it('registers with a watcher that starts later, with the count and a working menu', async () => {
    first = await startWatcher(bus.address);
    await eventually(async () => assert.equal(first.registered.length, 1));
    item = first.registered[0]!;
    const line = await waitForLog(broker.home, `tray icon registered as ${item}`);
    assert.match(
      line,
      /\[INFO\] tray icon registered as .*: a StatusNotifierWatcher appeared on the session D-Bus$/,
    );
    // The notification from before the panel started is counted at once.
    assert.equal(await first.property(item, 'Title'), 'Notify: 1 waiting');

    assert.equal((await create('Approve deploy')).status, 201);
    await eventually(async () => assert.equal(await first.property(item, 'Title'), 'Notify: 2 waiting'));
    const menu = await first.layout(item);
    assert.deepEqual(labels(menu).slice(0, 2), [
      'claude: Approve deploy',
      'claude: Waited while no panel ran',
    ]);
    await first.click(item, childByLabel(childByLabel(menu, 'claude: Approve deploy'), 'Resolve')[0]);
    await eventually(async () => assert.equal(await first.property(item, 'Title'), 'Notify: 1 waiting'));
  });

  it('registers with the new watcher when the panel restarts', async () => {
    first.stop();
    const left = await waitForLog(broker.home, 'tray icon is off: the StatusNotifierWatcher');
    assert.match(left, /\[WARN\] tray icon is off: the StatusNotifierWatcher left the session D-Bus$/);
    await untilNameIsFree(bus.address, 'org.kde.StatusNotifierWatcher');
    const second = await startWatcher(bus.address);
    try {
      await eventually(async () => assert.deepEqual(second.registered, [item]));
      assert.equal(await second.property(item, 'Title'), 'Notify: 1 waiting');
      assert.equal((await create('Pick a name')).status, 201);
      await eventually(async () => assert.equal(await second.property(item, 'Title'), 'Notify: 2 waiting'));
      assert.deepEqual(labels(await second.layout(item)).slice(0, 2), [
        'claude: Pick a name',
        'claude: Waited while no panel ran',
      ]);
      assert.deepEqual(first.registered, [item], 'registered once with the first watcher');
      const log = readLog(broker.home).split('\n');
      assert.deepEqual(
        log.filter((l) => l.includes('[WARN] tray icon is off')).map((l) => l.replace(/^.*\] /, '')),
        [
          'tray icon is off: no StatusNotifierWatcher on the session D-Bus (org.kde.StatusNotifierWatcher)',
          'tray icon is off: the StatusNotifierWatcher left the session D-Bus',
        ],
        'one WARN line when the icon goes off, each time',
      );
      assert.equal(log.filter((l) => l.includes('tray icon registered as')).length, 2);
    } finally {
      second.stop();
    }
  });
});

describe('the tray icon when the session bus itself restarts', () => {
  let dir: string;
  let bus: PrivateBus;
  let watcher: TestWatcher;
  let broker: BrokerProcess;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'notify-tray-busloss-'));
    bus = await startPrivateBus(join(dir, 'bus'));
    watcher = await startWatcher(bus.address);
    const home = createTempHome();
    home.env['DBUS_SESSION_BUS_ADDRESS'] = bus.address;
    broker = await startBroker({ home });
    await waitForLog(home, 'tray icon registered as');
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    watcher.stop();
    await bus.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (title: string) =>
    broker.request('POST', '/v1/notifications', {
      title,
      message: 'm',
      agent: 'claude',
      type: 'input_required',
    });

  it('warns once, reconnects to the same address and registers with the watcher there', async () => {
    const item = watcher.registered[0]!;
    // The daemon dies with the panel still connected: the watcher's name is never released.
    await bus.stop();
    const line = await waitForLog(broker.home, 'tray icon is off');
    // A daemon that shuts down may first tell us the watcher's connection went.
    assert.match(
      line,
      /\[WARN\] tray icon is off: (lost the session D-Bus: .+|the StatusNotifierWatcher left the session D-Bus)$/,
    );
    assert.equal((await create('While the bus was gone')).status, 201);
    // Reconnect attempts against a dead address stay quiet.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    bus = await startPrivateBus(join(dir, 'bus'));
    watcher = await startWatcher(bus.address);
    await eventually(async () => assert.deepEqual(watcher.registered, [item]), 8000);
    assert.equal(await watcher.property(item, 'Title'), 'Notify: 1 waiting');
    assert.equal((await create('Bus is back')).status, 201);
    await eventually(async () => assert.equal(await watcher.property(item, 'Title'), 'Notify: 2 waiting'));
    const menu = await watcher.layout(item);
    await watcher.click(item, childByLabel(childByLabel(menu, 'claude: Bus is back'), 'Resolve')[0]);
    await eventually(async () => assert.equal(await watcher.property(item, 'Title'), 'Notify: 1 waiting'));

    const log = readLog(broker.home).split('\n');
    assert.equal(log.filter((l) => l.includes('tray icon is off')).length, 1);
    assert.equal(log.filter((l) => l.includes(`tray icon registered as ${item}`)).length, 2);
  });
});
