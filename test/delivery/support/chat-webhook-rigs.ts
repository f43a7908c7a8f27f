import assert from 'node:assert/strict';
import { googleChat } from '../../../src/delivery/providers/google-chat/google-chat.js';
import { teams } from '../../../src/delivery/providers/teams/teams.js';
import { chatMessageProblem } from '../../support/google-chat-api.js';
import { teamsMessageProblem } from '../../support/teams-api.js';
import { secretValue } from './fixtures.js';
import { startHttpReceiver } from './http-receiver.js';
import { HTTP_EXPECTED, last, rawRequests, setHttp, type ProviderRig } from './rig.js';

/** Rigs of the send-only chat webhooks: a local HTTP receiver at the webhook's path. */

export const teamsRig: ProviderRig = {
  kind: teams,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const sig = secretValue('sig');
    const path = '/workflows/7f3a/triggers/manual/paths/invoke';
    const webhookUrl = `${receiver.url}${path}?api-version=2016-06-01&sig=${sig}`;
    const settings = { webhookUrl };
    return {
      settings,
      secrets: [sig],
      refusedSettings: (port) => ({ webhookUrl: `http://127.0.0.1:${port}${path}?sig=${sig}` }),
      set: (failure) => setHttp(receiver, failure, () => ({ status: 202 })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.deepEqual(result, { outcome: 'delivered', status: 202 });
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        assert.equal(request.url, `${path}?api-version=2016-06-01&sig=${sig}`);
        assert.equal(request.headers['idempotency-key'], op.idempotencyKey);
        assert.equal(teamsMessageProblem(JSON.parse(request.body)), undefined);
      },
      close: () => receiver.close(),
    };
  },
};

export const googleChatRig: ProviderRig = {
  kind: googleChat,
  expected: HTTP_EXPECTED,
  timeoutMs: 1000,
  async start() {
    const receiver = await startHttpReceiver();
    const token = secretValue('tok');
    const path = '/v1/spaces/AAAA7f3a/messages';
    const settings = { webhookUrl: `${receiver.url}${path}?key=AIzaKey&token=${token}` };
    return {
      settings,
      secrets: [token],
      refusedSettings: (port) => ({
        webhookUrl: `http://127.0.0.1:${port}${path}?key=AIzaKey&token=${token}`,
      }),
      set: (failure) =>
        setHttp(receiver, failure, () => ({
          status: 200,
          body: '{"name":"spaces/AAAA7f3a/messages/m1.m1","space":{"name":"spaces/AAAA7f3a"}}',
        })),
      received: () => rawRequests(receiver),
      assertDelivered(op, result) {
        assert.deepEqual(result, {
          outcome: 'delivered',
          status: 200,
          reference: 'spaces/AAAA7f3a/messages/m1.m1',
        });
        const request = last(receiver.requests);
        assert.equal(request.method, 'POST');
        const url = new URL(request.url, receiver.url);
        assert.equal(url.pathname, path);
        assert.equal(url.searchParams.get('token'), token);
        assert.equal(url.searchParams.get('messageReplyOption'), 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
        const body = JSON.parse(request.body) as { thread?: { threadKey?: string } };
        assert.equal(chatMessageProblem(body), undefined);
        assert.equal(body.thread?.threadKey, op.notification.key);
      },
      close: () => receiver.close(),
    };
  },
};
