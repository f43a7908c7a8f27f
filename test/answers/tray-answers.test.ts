import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTrayDesktop } from '../support/desktop-broker.js';
import { waitForLog } from '../support/broker-log.js';
import { type MenuNode } from '../support/status-notifier-watcher.js';
import { waitFor } from '../support/wait-for.js';

/** Labels as the panel gets them (dbusmenu doubles `_`, its mnemonic mark), `---` for a separator. */
const labels = (node: MenuNode): string[] =>
  node[2].map((child) =>
    child.value[1]['type']?.value === 'separator' ? '---' : String(child.value[1]['label']?.value),
  );

const childByLabel = (node: MenuNode, label: string): MenuNode => {
  const found = node[2].find((child) => child.value[1]['label']?.value === label);
  assert.ok(found, `no menu entry "${label}" in ${labels(node).join(' | ')}`);
  return found.value;
};

describe('answers in the tray menu', () => {
  const desktop = useTrayDesktop();

  const create = async (body: Record<string, unknown>) => {
    const response = await desktop.broker.request('POST', '/v1/notifications', { agent: 'claude', ...body });
    assert.equal(response.status, 201);
    return ((await response.json()) as { id: string }).id;
  };
  const entryOf = async (label: string) => {
    let entry: MenuNode | undefined;
    await waitFor(async () => {
      const menu = await desktop.watcher.layout(desktop.item);
      entry = labels(menu).includes(label) ? childByLabel(menu, label) : undefined;
      return entry !== undefined;
    }, `the menu entry ${label}`);
    return entry!;
  };

  it('lists a waiting request with what it asks and its actions; a click answers as tray', async () => {
    const id = await create({
      title: 'Run the script?',
      message: 'python3 do_it.py\n--fast',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    const entry = await entryOf('claude: Run the script?');
    assert.deepEqual(labels(entry), ['python3 do__it.py --fast', 'Allow', 'Deny', '---', 'Dismiss']);
    assert.equal(entry[2][0]!.value[1]['enabled']?.value, false);
    await desktop.watcher.click(desktop.item, childByLabel(entry, 'Allow')[0]);
    await waitForLog(desktop.broker.home, `answer: notification ${id} action allow surface tray`);
    const stored = (await (await desktop.broker.request('GET', `/v1/notifications/${id}`)).json()) as {
      status: string;
      answer: { action: string; surface: string };
    };
    assert.deepEqual(
      [stored.status, stored.answer.action, stored.answer.surface],
      ['resolved', 'allow', 'tray'],
    );
    await waitFor(
      async () => !labels(await desktop.watcher.layout(desktop.item)).includes('claude: Run the script?'),
      'the entry leaving the menu',
    );
  });

  it('cuts a long message in the menu and says so; a notification without actions keeps Resolve', async () => {
    await create({ title: 'Long?', message: 'x'.repeat(250), actions: [{ id: 'ok', label: 'OK' }] });
    await create({ title: 'Plain', message: 'm' });
    assert.equal(labels(await entryOf('claude: Long?'))[0], `${'x'.repeat(200)}… [cut: 50 more characters]`);
    assert.deepEqual(labels(await entryOf('claude: Plain')), ['Resolve', 'Dismiss']);
  });
});
