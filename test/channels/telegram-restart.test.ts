import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startTelegramApi, type TelegramApi } from '../support/telegram-api.js';
import { waitFor } from '../support/wait-for.js';
import { ask, channelProvider, notificationOf } from './support.js';

const CHAT = 4242;

describe('telegram: notifyd restarts while a getUpdates long poll is open', { timeout: 60_000 }, () => {
  let broker: BrokerProcess;
  let api: TelegramApi;

  before(async () => {
    broker = await startBroker();
    api = await startTelegramApi();
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await api.close();
  });

  it('applies the press made while it was down once it is back, and no press twice', async () => {
    await channelProvider(broker, 'telegram', { botToken: api.token, chatId: String(CHAT), apiUrl: api.url });
    const first = await ask(broker, 'Before the restart', 'one');
    const firstMessage = await api.nextMessage();
    const second = await ask(broker, 'Across the restart', 'two');
    const secondMessage = await api.nextMessage();
    // Both sends are recorded as delivered before the restart (a send cut short is sent again).
    await waitFor(async () => {
      const items = (await (await broker.request('GET', '/v1/outbox')).json()) as { state: string }[];
      return items.length === 2 && items.every((item) => item.state === 'delivered');
    }, 'both sends delivered');
    await api.pollOpen();
    const before = api.press(firstMessage.message_id, 0, CHAT);
    assert.equal((await api.acknowledgement(before)).text, 'Answered “Allow” on Telegram');
    await api.pollOpen();

    // notifyd stops with the poll open; the person presses meanwhile; notifyd comes back.
    assert.equal(await broker.stop(), 0);
    const during = api.press(secondMessage.message_id, 1, CHAT);
    broker = await startBroker({ home: broker.home });
    assert.equal((await api.acknowledgement(during)).text, 'Answered “Deny” on Telegram');
    const answered = await notificationOf(broker, second.id);
    assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['deny', 'telegram']);
    assert.equal((await notificationOf(broker, first.id)).answer?.action, 'allow');

    // The press read before the restart was confirmed by the saved offset: never read again.
    await api.pollOpen();
    const acknowledged = (id: string) =>
      api.calls.filter(
        (call) => call.method === 'answerCallbackQuery' && call.params['callback_query_id'] === id,
      ).length;
    assert.equal(acknowledged(before), 1);
    assert.equal(acknowledged(during), 1);
    await waitFor(() => secondMessage.buttons.length === 0, 'the message edited after the answer');
    assert.equal(api.calls.filter((call) => call.method === 'sendMessage').length, 2, 'no message twice');
  });
});
