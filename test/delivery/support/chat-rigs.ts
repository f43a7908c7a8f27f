import assert from 'node:assert/strict';
import { slack } from '../../../src/delivery/providers/slack/slack.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

/** Rigs of the chat services that carry answers back; their sockets are tested in test/channels/. */

const SLACK_OK = '{"ok":true,"channel":"C0AGENTS01","ts":"1700000000.000100"}';

export const slackRig: ProviderRig = {
  kind: slack,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const botToken = secretValue('xoxb-');
    const appToken = secretValue('xapp-');
    const settings = {
      botToken,
      appToken,
      channel: 'C0AGENTS01',
      allowedUserIds: 'U0ALLOWED1',
      apiUrl: `${receiver.url}/api`,
    };
    return {
      settings,
      secrets: [botToken, appToken],
      refusedSettings: (port) => ({ ...settings, apiUrl: `http://127.0.0.1:${port}/api` }),
      set: (failure) => setHttp(receiver, failure, () => ({ status: 200, body: SLACK_OK })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        // chat.postMessage: JSON with the bot token as bearer; the reference names channel and ts.
        assert.deepEqual(result, {
          outcome: 'delivered',
          status: 200,
          reference: '{"channel":"C0AGENTS01","ts":"1700000000.000100"}',
        });
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/api/chat.postMessage');
        assert.equal(request.headers.authorization, `Bearer ${botToken}`);
        const body = JSON.parse(request.body) as {
          channel: string;
          text: string;
          blocks: { type: string }[];
        };
        assert.equal(body.channel, 'C0AGENTS01');
        assert.ok(body.text.startsWith(op.notification.title));
        assert.equal(body.blocks[0]!.type, 'header');
      },
      assertUpdated(update) {
        const request = last(receiver.requests);
        assert.equal(request.url, '/api/chat.update');
        const body = JSON.parse(request.body) as { channel: string; ts: string; text: string };
        assert.deepEqual([body.channel, body.ts], ['C0AGENTS01', '1700000000.000100']);
        assert.ok(body.text.startsWith(update.notification.title));
      },
      close: () => receiver.close(),
    };
  },
};
