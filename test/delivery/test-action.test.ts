import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/broker-process.js';
import { ntfy } from '../../src/delivery/providers/ntfy/ntfy.js';
import { webhook } from '../../src/delivery/providers/webhook/webhook.js';
import { testProvider } from '../../src/delivery/test-action.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

describe('Test action', () => {
  let receiver: HttpReceiver;
  before(async () => {
    receiver = await startHttpReceiver();
  });
  after(() => receiver.close());

  it('sends the fixed payload as a notification.test event', async () => {
    receiver.answer({ status: 200 });
    const outcome = await testProvider(webhook, { url: receiver.url });
    assert.equal(outcome.summary, 'Webhook accepted the test notification (HTTP 200).');
    const body = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(body.type, 'notification.test');
    assert.deepEqual(
      [body.data.title, body.data.message, body.data.type, body.data.priority, body.data.agent],
      ['Notify test', 'If you can read this, Notify can reach you here.', 'info', 'normal', 'notify'],
    );
  });

  it('says the settings need a look when the receiver refuses (401)', async () => {
    receiver.answer({ status: 401, body: '{"error":"token tk_abc is invalid"}' });
    const outcome = await testProvider(ntfy, {
      serverUrl: receiver.url,
      topic: 'alerts',
      accessToken: 'tk_abc',
    });
    assert.equal(
      outcome.summary,
      "ntfy refused the test notification: the receiver answered HTTP 401; check the provider's settings.",
    );
  });

  it('says it would retry when nothing listens', async () => {
    const outcome = await testProvider(webhook, { url: `http://127.0.0.1:${await freePort()}/` });
    assert.equal(
      outcome.summary,
      'Webhook did not take the test notification: the connection was refused; a real notification would be retried.',
    );
  });

  it('says the time-out passed when the receiver never answers', async () => {
    receiver.answer('hang');
    const outcome = await testProvider(webhook, { url: receiver.url }, 300);
    assert.deepEqual(outcome.result, { outcome: 'retry', reason: 'timeout' });
    assert.equal(
      outcome.summary,
      'Webhook did not take the test notification: no answer within the time-out; a real notification would be retried.',
    );
  });
});
