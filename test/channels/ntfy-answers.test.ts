import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog } from '../support/broker-log.js';
import { useBroker } from '../support/broker-process.js';
import { startNtfyApi, type NtfyApi, type NtfyMessage } from '../support/ntfy-api.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { pairSender, setUpOperator } from '../support/relay-web.js';
import { waitFor } from '../support/wait-for.js';
import { ALLOW_DECISION, ask, channelProvider, notificationOf, permissionHook } from './support.js';

/**
 * ntfy's answer buttons through the real notifyd, the real notify-relay and an ntfy stand-in: the
 * buttons post, as the ntfy app does from the phone, to the relay's single-use answer link.
 */
const TOPIC = 'notify-answers-topic-3f9a';

async function messageWithButtons(ntfy: NtfyApi, title: string): Promise<NtfyMessage> {
  return waitFor(
    () => ntfy.published.find((message) => message.title === title && message.actions.length > 0),
    `the ntfy message "${title}" with its buttons`,
  );
}

describe('ntfy with a paired relay: buttons that answer', { timeout: 120_000 }, () => {
  const broker = useBroker();
  let relay: RelayProcess;
  let ntfy: NtfyApi;

  before(async () => {
    ntfy = await startNtfyApi();
    relay = await startRelay();
    const web = await setUpOperator(relay);
    const { credential } = await pairSender(relay, web);
    await channelProvider(broker, 'relay', { url: relay.url, allowPrivate: true, credential });
    await channelProvider(broker, 'ntfy', { serverUrl: ntfy.url, topic: TOPIC });
    await waitFor(() => readLog(broker.home).includes('event stream open'), 'the answer stream');
  });
  after(async () => {
    await ntfy.close();
    await relay.cleanup();
  });

  it('a press of Allow in the ntfy app answers the waiting hook; a second press changes nothing', async () => {
    const hook = permissionHook(broker, 'ntfy-answer');
    const message = await messageWithButtons(ntfy, 'Claude Code needs your permission');
    assert.deepEqual(
      message.actions.map(({ action, label, method, headers, clear }) => ({
        action,
        label,
        method,
        headers,
        clear,
      })),
      ['Allow', 'Deny', 'Always allow (see below)'].map((label) => ({
        action: 'http',
        label,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        clear: true,
      })),
    );
    assert.ok(
      message.actions.every((action) => action.url.startsWith(`${relay.url}/v1/push/notifications/`)),
      'every button posts to the relay',
    );
    assert.ok(
      message.actions.every((action) => !JSON.stringify(action).includes('nrc_')),
      "the relay's credential is on no button",
    );

    const pressed = await ntfy.press(message, 'Allow');
    assert.equal(pressed.status, 200, JSON.stringify(pressed.body));
    const { code, stdout } = await hook.finished;
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), ALLOW_DECISION);
    const id = pressed.body['id'] as string;
    assert.deepEqual((await notificationOf(broker, id)).answer?.action, 'allow');

    const again = await ntfy.press(message, 'Deny');
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(
      (await notificationOf(broker, id)).answer?.action,
      'allow',
      'the second press changed nothing',
    );
    await waitFor(
      () => ntfy.published.some((shown) => shown.sequenceId === message.sequenceId && shown.cleared),
      'the answered notification cleared from the app',
    );
  });

  it('a new revision replaces the message with new buttons; a press of the old ones is refused', async () => {
    const request = await ask(broker, 'Delete the branch?', 'git branch -D old', 'ntfy-stale');
    const first = await messageWithButtons(ntfy, 'Delete the branch?');
    await ask(broker, 'Delete the branch?', 'git push origin --delete main', 'ntfy-stale');
    const second = await waitFor(
      () =>
        ntfy.published.find(
          (message) => message.message.includes('--delete main') && message.actions.length > 0,
        ),
      'the message of revision 2 with its buttons',
    );
    assert.equal(second.sequenceId, first.sequenceId, 'the app replaces the message in place');
    assert.notEqual(second.actions[0]!.body, first.actions[0]!.body, 'new buttons for the new revision');

    const stale = await ntfy.press(first, 'Allow');
    assert.equal(stale.status, 409, JSON.stringify(stale.body));
    const still = await notificationOf(broker, request.id);
    assert.equal(still.status, 'active', 'the stale Allow approved nothing');
    assert.equal(still.answer, undefined);

    const fresh = await ntfy.press(second, 'Deny');
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    await waitFor(
      async () => (await notificationOf(broker, request.id)).answer?.action === 'deny',
      'the answer of the current buttons applied',
    );
  });
});

describe('ntfy without a relay: no buttons', { timeout: 60_000 }, () => {
  const broker = useBroker();
  let ntfy: NtfyApi;

  before(async () => {
    ntfy = await startNtfyApi();
    await channelProvider(broker, 'ntfy', { serverUrl: ntfy.url, topic: TOPIC });
  });
  after(() => ntfy.close());

  it('sends a request with actions as an alert only', async () => {
    await ask(broker, 'Run the migration?', 'npm run migrate');
    const message = await ntfy.nextMessage();
    assert.equal(message.title, 'Run the migration?');
    assert.deepEqual(message.actions, []);
  });
});
