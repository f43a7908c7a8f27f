import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startDesktop, stopDesktop, useDesktop, type DesktopSetup } from '../support/desktop-broker.js';
import { NOTIFICATIONS_NAME, NOTIFICATIONS_PATH } from '../../src/presentation/freedesktop-display.js';
import { startForger, type SignalForger } from '../support/signal-forger.js';

interface Dto {
  id: string;
  status: string;
  answer?: { action: string; surface: string };
}

const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];
const COMMAND = 'Bash(sort < input.txt > out.txt && echo "a & b")';

async function shown(desktop: DesktopSetup, title: string, body: Record<string, unknown> = {}) {
  const response = await desktop.broker.request('POST', '/v1/notifications', {
    title,
    message: COMMAND,
    agent: 'claude',
    type: 'permission_required',
    actions: ACTIONS,
    ...body,
  });
  assert.equal(response.status, 201);
  const { id } = (await response.json()) as Dto;
  await desktop.server.until(() => desktop.server.calls.some((call) => call.summary === title));
  return { id, call: desktop.server.calls.find((call) => call.summary === title)! };
}

const get = async (desktop: DesktopSetup, id: string) =>
  (await (await desktop.broker.request('GET', `/v1/notifications/${id}`)).json()) as Dto;

describe('answers on toasts (a server that declares body-markup)', () => {
  const desktop = useDesktop();
  let forger: SignalForger;
  before(async () => (forger = await startForger(desktop.bus.address)));
  after(() => forger.stop());

  it("offers the notification's actions as the buttons, with the command escaped to show exactly", async () => {
    const { call } = await shown(desktop, 'Run this?');
    assert.deepEqual(call.actions, [
      'default',
      'Open Notify',
      'answer.allow',
      'Allow',
      'answer.deny',
      'Deny',
      'snooze',
      'Snooze 15 min',
    ]);
    assert.equal(call.body, 'Bash(sort &lt; input.txt &gt; out.txt &amp;&amp; echo "a &amp; b")\nclaude');
    desktop.server.expire(call.id);
  });

  it('a forged press from another connection is ignored; the server’s own press answers as toast', async () => {
    const { id, call } = await shown(desktop, 'Allow it?');
    await forger.forge(NOTIFICATIONS_PATH, NOTIFICATIONS_NAME, 'ActionInvoked', 'us', [
      call.id,
      'answer.allow',
    ]);
    desktop.server.invokeAction(call.id, 'answer.deny');
    await waitForLog(desktop.broker.home, `answer: notification ${id} action deny surface toast`);
    const stored = await get(desktop, id);
    assert.equal(stored.status, 'resolved');
    assert.deepEqual(
      { action: stored.answer?.action, surface: stored.answer?.surface },
      { action: 'deny', surface: 'toast' },
    );
    assert.doesNotMatch(readLog(desktop.broker.home), /action allow/);
    // The answer resolves: the toast goes away.
    await desktop.server.until(() => desktop.server.closeCalls.includes(call.id));
  });

  it('cuts a long message and says that it is cut', async () => {
    const { call } = await shown(desktop, 'Long one?', { message: `${'x'.repeat(1000)}${'y'.repeat(234)}` });
    assert.equal(call.body, `${'x'.repeat(1000)}… [cut: 234 more characters not shown]\nclaude`);
    desktop.server.expire(call.id);
  });

  it('keeps Resolve and Dismiss on a notification without actions', async () => {
    const { call } = await shown(desktop, 'Plain', { actions: null });
    assert.deepEqual(call.actions, [
      'default',
      'Open Notify',
      'resolve',
      'Resolve',
      'dismiss',
      'Dismiss',
      'snooze',
      'Snooze 15 min',
    ]);
    desktop.server.expire(call.id);
  });
});

describe('answers on toasts (a server without body-markup)', () => {
  let desktop: DesktopSetup;
  before(async () => (desktop = await startDesktop({}, { capabilities: ['actions', 'body'] })));
  after(async () => stopDesktop(desktop));

  it('shows text it cannot eat as is, with the answer buttons', async () => {
    const { call } = await shown(desktop, 'Plain text?', { message: 'npm run build && npm test' });
    assert.equal(call.body, 'npm run build && npm test\nclaude');
    assert.deepEqual(call.actions, [
      'default',
      'Open Notify',
      'answer.allow',
      'Allow',
      'answer.deny',
      'Deny',
      'snooze',
      'Snooze 15 min',
    ]);
    desktop.server.expire(call.id);
  });

  it('offers no answer buttons for text a stripping server could cut, and says where to answer', async () => {
    const { call } = await shown(desktop, 'Tags?');
    assert.equal(
      call.body,
      `${COMMAND}\nclaude\nAnswer with notifyctl pending / notifyctl answer: this notification server may hide part of the text.`,
    );
    assert.deepEqual(call.actions, [
      'default',
      'Open Notify',
      'dismiss',
      'Dismiss',
      'snooze',
      'Snooze 15 min',
    ]);
    desktop.server.expire(call.id);
  });
});
