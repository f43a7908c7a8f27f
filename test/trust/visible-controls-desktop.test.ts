/**
 * Text that displays differently from what runs, on the desktop: dunst under Xvfb and the tray menu
 * show direction and invisible characters as `⟨U+202E⟩`, and offer no answer for such a request.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { useDunstDesktop, useTrayDesktop } from '../support/desktop-broker.js';
import { createDmenuStandIn } from '../support/dunst.js';
import { type MenuNode } from '../support/status-notifier-watcher.js';
import { testOutputPath } from '../support/test-output.js';
import { waitFor } from '../support/wait-for.js';
import { xwdToPng } from '../support/xwd-png.js';

const TERMINAL_ONLY = 'answer in the terminal: this text contains characters that change how it is displayed';
const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];
const REVERSED = 'ls \u202e hs.| lruc';
const REVERSED_SHOWN = 'ls ⟨U+202E⟩ hs.| lruc';
const JOINED = 'rm -rf ./build\u200d /';
const JOINED_SHOWN = 'rm -rf ./build⟨U+200D⟩ /';

interface HistoryEntry {
  summary: { data: string };
  message: { data: string };
}

describe('dunst (Xvfb) shows hidden characters and offers no answer for them', () => {
  const dmenu = createDmenuStandIn();
  const desktop = useDunstDesktop({ markup: 'full', dmenu: dmenu.path });
  after(() => dmenu.cleanup());

  const CASES: [name: string, title: string, message: string, shown: string, summary: string][] = [
    ['a right-to-left override', 'Run it?', REVERSED, REVERSED_SHOWN, 'Run it?'],
    ['a zero-width joiner', 'Remove it?', JOINED, JOINED_SHOWN, 'Remove it?'],
    ['an isolate in the title', 'Run \u2067it?', 'ls', 'ls', 'Run ⟨U+2067⟩it?'],
  ];
  for (const [name, title, message, shown, summary] of CASES) {
    it(`${name}: the toast shows the marker and the sentence, and its menu has no answer`, async () => {
      await desktop.dunst.ctl('close-all');
      const response = await desktop.broker.request('POST', '/v1/notifications', {
        title,
        message,
        agent: 'claude',
        type: 'permission_required',
        actions: ACTIONS,
      });
      assert.equal(response.status, 201);
      const { id } = (await response.json()) as { id: string };
      await waitFor(async () => (await desktop.dunst.ctl('count', 'displayed')).trim() === '1', 'the toast');
      if (name === 'a right-to-left override') {
        const png = testOutputPath('visible-controls-dunst.png');
        await desktop.dunst.screenshot(`${png}.xwd`);
        writeFileSync(png, xwdToPng(readFileSync(`${png}.xwd`)));
        rmSync(`${png}.xwd`);
      }
      // The context menu lists every action the toast offers; Dismiss, chosen there, reaches the broker
      // once dunst has run the menu, so what the menu offered is known then.
      dmenu.choose('dismiss');
      await desktop.dunst.ctl('context');
      await waitFor(async () => {
        const now = await desktop.broker.request('GET', `/v1/notifications/${id}`);
        return ((await now.json()) as { status: string }).status === 'dismissed';
      }, 'the dismissal chosen in the menu');
      const menu = dmenu.menu();
      assert.doesNotMatch(menu, /answer\./);
      assert.match(menu, /dismiss/);
      const history = JSON.parse(await desktop.dunst.ctl('history')) as { data: HistoryEntry[][] };
      const entry = history.data[0]!.find((candidate) => candidate.summary.data === summary);
      assert.ok(entry, `the toast is in history: ${JSON.stringify(history)}`);
      // dunst's format is `<b>%s</b>\n%b`; the body came escaped for markup.
      assert.equal(
        entry.message.data.replace(/^<b>.*?<\/b>\n/s, ''),
        `${shown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\nclaude\n${TERMINAL_ONLY}`,
      );
    });
  }
});

/** Labels as the panel gets them, `---` for a separator. */
const labels = (node: MenuNode): string[] =>
  node[2].map((child) =>
    child.value[1]['type']?.value === 'separator' ? '---' : String(child.value[1]['label']?.value),
  );

describe('the tray menu shows hidden characters and offers no answer for them', () => {
  const desktop = useTrayDesktop();

  const entryOf = async (label: string): Promise<MenuNode> =>
    waitFor(async () => {
      const menu = await desktop.watcher.layout(desktop.item);
      return menu[2].find((child) => child.value[1]['label']?.value === label)?.value;
    }, `the menu entry ${label}`);

  it('a right-to-left override and a zero-width joiner: the marker, the sentence, Dismiss, no Allow', async () => {
    for (const [title, message] of [
      ['Run it?', REVERSED],
      ['Remove it?', JOINED],
      ['Plain?', 'ls -la'],
    ]) {
      const response = await desktop.broker.request('POST', '/v1/notifications', {
        title,
        message,
        agent: 'claude',
        actions: ACTIONS,
      });
      assert.equal(response.status, 201);
    }
    assert.deepEqual(labels(await entryOf('claude: Run it?')), [
      REVERSED_SHOWN,
      TERMINAL_ONLY,
      '---',
      'Dismiss',
    ]);
    assert.deepEqual(labels(await entryOf('claude: Remove it?')), [
      JOINED_SHOWN,
      TERMINAL_ONLY,
      '---',
      'Dismiss',
    ]);
    assert.deepEqual(labels(await entryOf('claude: Plain?')), ['ls -la', 'Allow', 'Deny', '---', 'Dismiss']);
  });

  it('shows an isolate in the title as a marker in the entry itself', async () => {
    const response = await desktop.broker.request('POST', '/v1/notifications', {
      title: 'Run \u2067it?',
      message: 'ls',
      agent: 'claude',
      actions: ACTIONS,
    });
    assert.equal(response.status, 201);
    assert.deepEqual(labels(await entryOf('claude: Run ⟨U+2067⟩it?')), [
      'ls',
      TERMINAL_ONLY,
      '---',
      'Dismiss',
    ]);
  });
});
