import assert from 'node:assert/strict';
import { telegram } from '../../../src/delivery/providers/telegram/telegram.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

/**
 * Telegram's Bot API as the conformance suite sees it (https://core.telegram.org/bots/api): a JSON
 * POST to /bot<token>/sendMessage answered with the Message, editMessageText with its ids.
 */
export const telegramRig: ProviderRig = {
  kind: telegram,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const botToken = `123456789:AA${Math.random().toString(36).slice(2)}`;
    const settings = { botToken, chatId: '-1001234', apiUrl: receiver.url };
    return {
      settings,
      secrets: [botToken],
      refusedSettings: (port) => ({ ...settings, apiUrl: `http://127.0.0.1:${port}` }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({
          status: 200,
          body: '{"ok":true,"result":{"message_id":77,"chat":{"id":-1001234},"date":0}}',
        })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, `/bot${botToken}/sendMessage`);
        assert.equal(request.headers['content-type'], 'application/json');
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.equal(body['chat_id'], '-1001234');
        assert.equal(
          body['text'],
          `${op.notification.title}\n\n${op.notification.message}\n\nci-agent · notify`,
        );
        assert.deepEqual(result, { outcome: 'delivered', reference: '-1001234:77' });
      },
      assertUpdated(update) {
        const request = last(receiver.requests);
        assert.equal(request.url, `/bot${botToken}/editMessageText`);
        const body = JSON.parse(request.body) as Record<string, unknown>;
        assert.deepEqual([body['chat_id'], body['message_id']], ['-1001234', 77]);
        assert.ok(String(body['text']).startsWith(update.notification.title));
      },
      close: () => receiver.close(),
    };
  },
};
