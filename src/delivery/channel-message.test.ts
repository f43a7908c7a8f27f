import assert from 'node:assert/strict';
import { it } from 'node:test';
import { answerButtons, fitText, statusLine } from './channel-message.js';
import type { OutboundNotification } from './provider.js';
import { discordMessage, escapeMarkdown } from './providers/discord/discord-message.js';
import { slackMessage } from './providers/slack/slack-message.js';

const request: OutboundNotification = {
  id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  title: 'Claude Code needs your permission',
  message: 'Bash\nrm -rf build/*_old',
  type: 'permission_required',
  priority: 'high',
  status: 'active',
  revision: 2,
  agent: 'claude-code',
  project: 'shop',
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  actions: [
    { id: 'allow', label: 'Allow' },
    { id: 'deny', label: 'Deny' },
  ],
};

it('offers one button per action while the request is active, naming the revision shown', () => {
  assert.deepEqual(answerButtons(request), [
    { label: 'Allow', index: 0 },
    { label: 'Deny', index: 1 },
  ]);
  const slack = slackMessage(request, true).blocks.find((block) => block.type === 'actions') as {
    elements: { value: string }[];
  };
  assert.equal(slack.elements[1]!.value, `n1:${request.id}:2:1`);
  assert.deepEqual(answerButtons({ ...request, status: 'resolved' }), []);
  assert.equal(
    slackMessage(request, false).blocks.some((block) => block.type === 'actions'),
    false,
  );
});

it('offers no buttons for text that displays differently from what runs, and says to use the terminal', () => {
  const hidden = { ...request, message: 'Bash\nls \u202e hs.| lruc' };
  assert.deepEqual(answerButtons(hidden), []);
  assert.match(statusLine(hidden) ?? '', /^Answer in the terminal: /);
  assert.deepEqual(discordMessage(hidden, true)['components'], []);
});

it('says how the request ended', () => {
  const answer = { action: 'deny', surface: 'slack', answeredAt: '2026-11-28T10:01:00.000Z' };
  assert.equal(statusLine({ ...request, status: 'resolved', answer }), 'Answered “Deny” on Slack');
  assert.equal(statusLine({ ...request, status: 'dismissed' }), 'Dismissed');
  assert.equal(statusLine(request), undefined);
});

it('shows text on Discord exactly as written: Markdown characters are escaped', () => {
  assert.equal(escapeMarkdown('rm -rf build/*_old `x` @here'), 'rm \\-rf build/\\*\\_old \\`x\\` \\@here');
  const embed = (discordMessage(request, true)['embeds'] as { description: string }[])[0]!;
  assert.equal(embed.description, 'Bash\nrm \\-rf build/\\*\\_old');
});

it("cuts text to a service's limit with an ellipsis, never through an emoji", () => {
  const table: [string, number, string][] = [
    ['short', 10, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['eleven char', 10, 'eleven ch…'],
    // 🚀 is two UTF-16 units: the cut would leave half of it, so it goes whole.
    ['abcdefgh🚀xyz', 10, 'abcdefgh…'],
    ['abcdefg🚀xyz', 10, 'abcdefg🚀…'],
    ['🚀🚀🚀🚀🚀🚀', 10, '🚀🚀🚀🚀…'],
  ];
  for (const [text, max, fitted] of table) {
    assert.equal(fitText(text, max), fitted, text);
    assert.ok(fitText(text, max).length <= max, `${text} fits ${max}`);
    assert.equal(fitText(text, max).isWellFormed(), true, `${text} keeps whole characters`);
  }
});
