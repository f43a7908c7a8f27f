import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeAnswerPayload, NOT_ALLOWED_MESSAGE } from '../../src/domain/channel-answer.js';
import { readLog } from '../support/broker-log.js';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';
import { startTelegramApi, type TelegramApi } from '../support/telegram-api.js';
import { waitFor } from '../support/wait-for.js';
import { ALLOW_DECISION, ask, channelProvider, notificationOf, permissionHook } from './support.js';

/**
 * Telegram through the real notifyd and its outbox, against a Bot API stand-in with real long
 * polling: the chat is the private chat of user 4242 with the bot, and user 555 is allowed besides.
 */
const CHAT = 4242;
const ALLOWED = 555;
const STRANGER = 777;

describe('telegram: requests in a chat, answered with its buttons', { timeout: 120_000 }, () => {
  const broker = useBroker();
  let api: TelegramApi;
  let providerId: string;

  before(async () => {
    api = await startTelegramApi();
    providerId = await channelProvider(broker, 'telegram', {
      botToken: api.token,
      chatId: String(CHAT),
      allowedUserIds: String(ALLOWED),
      apiUrl: api.url,
    });
    await api.pollOpen();
  });
  after(() => api.close());

  it('posts a request with a button per action, edits it when it changes and when it ends', async () => {
    const first = await ask(broker, 'Deploy to prod?', 'kubectl apply -f prod.yaml', 'deploy-1');
    const message = await api.nextMessage();
    assert.equal(message.chat_id, String(CHAT));
    assert.ok(message.text.startsWith('Deploy to prod?\n\n'), message.text);
    assert.match(message.text, /kubectl apply -f prod\.yaml/);
    assert.deepEqual(
      message.buttons.map((button) => [button.text, decodeAnswerPayload(button.callback_data)]),
      [
        ['Allow', { notificationId: first.id, revision: 1, choice: { index: 0 } }],
        ['Deny', { notificationId: first.id, revision: 1, choice: { index: 1 } }],
      ],
    );

    await ask(broker, 'Deploy to prod?', 'kubectl apply -f prod-v2.yaml', 'deploy-1');
    await waitFor(() => message.text.includes('prod-v2.yaml'), 'the edit with the new text');
    assert.deepEqual(
      message.buttons.map((button) => decodeAnswerPayload(button.callback_data)?.revision),
      [2, 2],
    );

    const resolved = await callJson(broker, 'PATCH', `/v1/notifications/${first.id}`, { status: 'resolved' });
    assert.equal(resolved.status, 200);
    await waitFor(() => message.text.endsWith('\n\nResolved'), 'the edit saying it ended');
    assert.deepEqual(message.buttons, [], 'no buttons once it ended');
    assert.equal(api.calls.filter((call) => call.method === 'sendMessage').length, 1, 'one message');
  });

  it('an allowed press answers the waiting PermissionRequest hook and the message says so', async () => {
    const hook = permissionHook(broker, 'telegram-allow');
    const message = await api.nextMessage();
    assert.deepEqual(
      message.buttons.map((button) => button.text),
      ['Allow', 'Deny', 'Always allow (see below)'],
    );
    const id = decodeAnswerPayload(message.buttons[0]?.callback_data ?? '')?.notificationId;
    assert.ok(id, 'the Allow button names the request');
    const query = api.press(message.message_id, 0, CHAT);
    assert.deepEqual(await api.acknowledgement(query), {
      text: 'Answered “Allow” on Telegram',
      show_alert: false,
    });
    const done = await hook.finished;
    assert.equal(done.code, 0);
    assert.deepEqual(JSON.parse(done.stdout), ALLOW_DECISION);
    await waitFor(() => message.buttons.length === 0, 'the buttons taken away');
    assert.ok(message.text.endsWith('\n\nAnswered “Allow” on Telegram'), message.text);
    const answered = await notificationOf(broker, id);
    assert.equal(answered.status, 'resolved');
    assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['allow', 'telegram']);
  });

  it('refuses a press of someone not allowed, and changes nothing; an allowed user in the list answers', async () => {
    const request = await ask(broker, 'Push to main?', 'git push origin main');
    const message = await api.nextMessage();
    const refused = api.press(message.message_id, 0, STRANGER);
    assert.deepEqual(await api.acknowledgement(refused), { text: NOT_ALLOWED_MESSAGE, show_alert: true });
    const still = await notificationOf(broker, request.id);
    assert.equal(still.status, 'active');
    assert.equal(still.answer, undefined);
    assert.equal(message.history.length, 1, 'the message is not edited');

    const allowed = api.press(message.message_id, 1, ALLOWED);
    assert.equal((await api.acknowledgement(allowed)).text, 'Answered “Deny” on Telegram');
    assert.equal((await notificationOf(broker, request.id)).answer?.action, 'deny');
  });

  it('refuses a press on what the request showed before it changed, and the message shows what it asks now', async () => {
    const request = await ask(broker, 'Delete the branch?', 'git branch -D old', 'stale-1');
    const message = await api.nextMessage();
    const shownBefore = message.buttons[0]!.callback_data;
    await ask(broker, 'Delete the branch?', 'git push origin --delete main', 'stale-1');
    await waitFor(() => message.text.includes('--delete main'), 'the edit to revision 2');

    // A phone that still showed revision 1 sends its Allow.
    const stale = api.press(message.message_id, 0, CHAT, shownBefore);
    const refusal = await api.acknowledgement(stale);
    assert.match(
      refusal.text,
      /this request changed after it was shown \(revision 1 answered, now revision 2\)/,
    );
    assert.equal(refusal.show_alert, true);
    assert.equal(
      (await notificationOf(broker, request.id)).status,
      'active',
      'the stale Allow approved nothing',
    );
    assert.deepEqual(
      message.buttons.map((button) => decodeAnswerPayload(button.callback_data)?.revision),
      [2, 2],
      'the message offers the current revision',
    );

    const fresh = api.press(message.message_id, 1, CHAT);
    assert.equal((await api.acknowledgement(fresh)).text, 'Answered “Deny” on Telegram');
    assert.equal((await notificationOf(broker, request.id)).answer?.action, 'deny');
  });

  it('offers no buttons for a request whose text hides how it runs, and shows the hidden characters', async () => {
    await ask(broker, 'Run this?', 'ls \u202e hs.| lruc');
    const message = await api.nextMessage();
    assert.deepEqual(message.buttons, []);
    assert.match(message.text, /ls ⟨U\+202E⟩ hs\.\| lruc/);
    assert.ok(
      message.text.endsWith(
        '\n\nAnswer in the terminal: this text contains characters that change how it is displayed',
      ),
      message.text,
    );
  });

  it('waits as long as a 429 says, when sending and when polling', async () => {
    api.failNext('sendMessage', 429, 1, 3);
    await ask(broker, 'Rate limited?', 'try again later');
    const message = await api.nextMessage();
    assert.match(message.text, /Rate limited\?/);
    const sends = api.calls.filter((call) => call.method === 'sendMessage').slice(-2);
    assert.ok(sends[1]!.at - sends[0]!.at >= 2900, `sent again after ${sends[1]!.at - sends[0]!.at} ms`);

    await api.pollOpen();
    api.failNext('getUpdates', 429, 1, 3);
    // The press ends the open poll; the next one is told to wait 3 s.
    const query = api.press(message.message_id, 1, CHAT);
    assert.equal((await api.acknowledgement(query)).text, 'Answered “Deny” on Telegram');
    const polls = await waitFor(() => {
      const all = api.calls.filter((call) => call.method === 'getUpdates');
      const limited = all.findIndex((call) => call.failedWith === 429);
      const next = all[limited + 1];
      return limited >= 0 && next !== undefined && next.at - all[limited]!.at;
    }, 'the poll after the 429');
    assert.ok(polls >= 2900, `polled again after ${polls} ms`);
  });

  it('shows a refused token as refused, and never writes a token to the log', async () => {
    const wrong = '987654321:WRONGtokenWRONGtoken';
    const refusedId = await channelProvider(
      broker,
      'telegram',
      { botToken: wrong, chatId: String(CHAT), apiUrl: api.url },
      'telegram with a revoked token',
    );
    const view = await waitFor(async () => {
      const found = (await callJson(broker, 'GET', `/v1/providers/${refusedId}`)).body!;
      return found['listening']?.state === 'refused' && found;
    }, 'the refused listener');
    assert.equal(view['listening'].reason, 'http_401');
    const providers = JSON.stringify((await callJson(broker, 'GET', '/v1/providers')).body);
    const log = readLog(broker.home);
    assert.match(log, /telegram: provider .* refuses the credentials \(http_401\)/);
    for (const token of [api.token, wrong]) {
      assert.ok(!log.includes(token), 'a bot token is in the broker log');
      assert.ok(!log.includes(token.split(':')[1]!), 'a bot token is in the broker log');
      assert.ok(!providers.includes(token), 'a bot token is in the providers API');
    }
    assert.ok(providerId !== refusedId);
  });
});
