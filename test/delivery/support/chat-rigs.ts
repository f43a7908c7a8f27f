import assert from 'node:assert/strict';
import { discord } from '../../../src/delivery/providers/discord/discord.js';
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

const DISCORD_OK = '{"id":"1180000000000000500","channel_id":"1180000000000000777"}';

export const discordRig: ProviderRig = {
  kind: discord,
  expected: {
    ...HTTP_EXPECTED,
    // Discord's 429 says how long to wait in its body, with a fraction; it wins over the header.
    http429: { outcome: 'retry', reason: 'http_429', retryAfterMs: 2250 },
  },
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const botToken = secretValue('MTA.');
    const settings = {
      botToken,
      channelId: '1180000000000000777',
      allowedUserIds: '1180000000000000111',
      apiUrl: `${receiver.url}/api/v10`,
    };
    return {
      settings,
      secrets: [botToken],
      refusedSettings: (port) => ({ ...settings, apiUrl: `http://127.0.0.1:${port}/api/v10` }),
      set: (failure) =>
        failure === 'http429'
          ? receiver.answer({
              status: 429,
              headers: { 'retry-after': '3', 'content-type': 'application/json' },
              body: '{"message":"You are being rate limited.","retry_after":2.25,"global":false}',
            })
          : setHttp(receiver, failure, () => ({ status: 200, body: DISCORD_OK })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.deepEqual(result, {
          outcome: 'delivered',
          status: 200,
          reference: '1180000000000000777/1180000000000000500',
        });
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, '/api/v10/channels/1180000000000000777/messages');
        assert.equal(request.headers.authorization, `Bot ${botToken}`);
        assert.match(String(request.headers['user-agent']), /^DiscordBot \(/);
        const body = JSON.parse(request.body) as { embeds: { title: string }[]; allowed_mentions: unknown };
        assert.equal(body.embeds[0]!.title, op.notification.title);
        assert.deepEqual(body.allowed_mentions, { parse: [] });
      },
      assertUpdated(update) {
        const request = last(receiver.requests);
        assert.equal(request.method, 'PATCH');
        assert.equal(request.url, '/api/v10/channels/1180000000000000777/messages/1180000000000000500');
        const body = JSON.parse(request.body) as { embeds: { title: string }[] };
        assert.equal(body.embeds[0]!.title, update.notification.title);
      },
      close: () => receiver.close(),
    };
  },
};
