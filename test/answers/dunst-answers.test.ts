import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { useDunstDesktop } from '../support/desktop-broker.js';
import { createDmenuStandIn } from '../support/dunst.js';
import { waitForLog } from '../support/broker-log.js';
import { waitFor } from '../support/wait-for.js';

interface Dto {
  id: string;
  status: string;
  answer?: { action: string; surface: string };
}

interface HistoryEntry {
  summary: { data: string };
  message: { data: string };
}

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/** What pango draws of dunst's markup for our toasts: the format's bold summary line, then the body. */
function drawnText(markup: string): string {
  return markup
    .replace(/^<b>.*?<\/b>\n/s, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

for (const markup of ['full', 'strip', 'no'] as const) {
  describe(`answers in dunst with markup = ${markup} (Xvfb)`, () => {
    const dmenu = createDmenuStandIn();
    const desktop = useDunstDesktop({ markup, dmenu: dmenu.path });
    after(() => dmenu.cleanup());

    async function ask(title: string, message: string): Promise<string> {
      await desktop.dunst.ctl('close-all');
      const response = await desktop.broker.request('POST', '/v1/notifications', {
        title,
        message,
        agent: 'claude',
        type: 'permission_required',
        actions: ACTIONS,
      });
      assert.equal(response.status, 201);
      await waitFor(async () => (await desktop.dunst.ctl('count', 'displayed')).trim() === '1', 'the toast');
      return ((await response.json()) as Dto).id;
    }

    async function shownText(title: string): Promise<string> {
      // Closed toasts go to history, which tells what desktop.dunst drew.
      await desktop.dunst.ctl('close-all');
      const history = JSON.parse(await desktop.dunst.ctl('history')) as { data: HistoryEntry[][] };
      const entry = history.data[0]!.find((candidate) => candidate.summary.data === title)!;
      return drawnText(entry.message.data);
    }

    const command = markup === 'no' ? 'npm test && echo "a & b"' : 'Bash(sort < input.txt > out.txt)';

    it('shows the command exactly and answers Allow from the context menu', async () => {
      const id = await ask(`Run it (${markup})?`, command);
      // docs/answers-toast.png comes from this dump (X Window Dump), cropped and converted to PNG.
      const keep = process.env['NOTIFY_ANSWER_SCREENSHOT'];
      if (keep && markup === 'full') await desktop.dunst.screenshot(keep);
      dmenu.choose('answer.allow');
      await desktop.dunst.ctl('context');
      await waitForLog(desktop.broker.home, `answer: notification ${id} action allow surface toast`);
      const stored = (await (await desktop.broker.request('GET', `/v1/notifications/${id}`)).json()) as Dto;
      assert.equal(stored.status, 'resolved');
      assert.equal(stored.answer?.action, 'allow');
      assert.match(dmenu.menu(), /answer\.deny/);
      const history = JSON.parse(await desktop.dunst.ctl('history')) as { data: HistoryEntry[][] };
      const entry = history.data[0]!.find((candidate) => candidate.summary.data === `Run it (${markup})?`);
      assert.ok(entry, `the answered toast went to history: ${JSON.stringify(history)}`);
      assert.equal(drawnText(entry.message.data), `${command}\nclaude`);
    });

    it('shows what looks like tags exactly, or offers no answer where the server may hide it', async () => {
      const tagged = 'Bash(sort < input.txt > out.txt)';
      await ask(`Tags (${markup})?`, tagged);
      const text = await shownText(`Tags (${markup})?`);
      if (markup === 'no') {
        // desktop.dunst does not declare body-markup here, and a rule could still strip: no answer buttons.
        assert.equal(
          text,
          `${tagged}\nclaude\nAnswer with notifyctl pending / notifyctl answer: this notification server may hide part of the text.`,
        );
      } else {
        assert.equal(text, `${tagged}\nclaude`);
      }
    });
  });
}
