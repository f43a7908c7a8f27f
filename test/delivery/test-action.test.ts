import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/broker-process.js';
import { ntfy } from '../../src/delivery/providers/ntfy/ntfy.js';
import { webhook } from '../../src/delivery/providers/webhook/webhook.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';
import { startProviderService, type ProviderServiceRig } from './support/provider-service.js';

/** The Test action as POST /v1/providers/{id}/test runs it, against a real local receiver. */
describe('Test action', () => {
  let receiver: HttpReceiver;
  let rig: ProviderServiceRig;
  before(async () => {
    receiver = await startHttpReceiver();
    // The attempt time-out, as short as the time-out case allows: the first attempt also loads the HTTP
    // client (undici loads on first use), which a busy machine can stretch past a few hundred ms.
    rig = startProviderService([webhook, ntfy], 1000);
  });
  after(async () => {
    rig.close();
    await receiver.close();
  });

  it('sends the fixed payload as a notification.test event and records the result', async () => {
    receiver.answer({ status: 200 });
    const id = await rig.add(webhook, { url: receiver.url });
    const outcome = await rig.service.test(id);
    assert.deepEqual(outcome, {
      outcome: 'delivered',
      status: 200,
      summary: 'Webhook accepted the test notification (HTTP 200).',
    });
    const body = JSON.parse(receiver.requests.at(-1)?.body ?? '{}') as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(body.type, 'notification.test');
    assert.deepEqual(
      [body.data.title, body.data.message, body.data.type, body.data.priority, body.data.agent],
      ['Notify test', 'If you can read this, Notify can reach you here.', 'info', 'normal', 'notify'],
    );
    assert.equal(rig.service.get(id).health, 'ok');
  });

  it('says the settings need a look when the receiver refuses (401), without its reply or the token', async () => {
    receiver.answer({ status: 401, body: '{"error":"token tk_abc is invalid"}' });
    const id = await rig.add(ntfy, { serverUrl: receiver.url, topic: 'alerts', accessToken: 'tk_abc' });
    const outcome = await rig.service.test(id);
    assert.deepEqual(outcome, {
      outcome: 'reject',
      reason: 'http_401',
      status: 401,
      summary:
        "ntfy refused the test notification: the receiver answered HTTP 401; check the provider's settings.",
    });
    assert.deepEqual(
      [rig.service.get(id).health, rig.service.get(id).lastResult?.reason],
      ['failing', 'http_401'],
    );
  });

  it('names a setting the provider cannot use before anything is sent', async () => {
    const before = receiver.requests.length;
    const id = await rig.add(ntfy, { serverUrl: receiver.url, topic: 'my alerts' });
    assert.equal(
      (await rig.service.test(id)).summary,
      "ntfy refused the test notification: the topic may hold only letters, digits, - and _ (at most 64); check the provider's settings.",
    );
    assert.equal(receiver.requests.length, before);
  });

  it('says it would retry when nothing listens', async () => {
    const id = await rig.add(webhook, { url: `http://127.0.0.1:${await freePort()}/` });
    assert.equal(
      (await rig.service.test(id)).summary,
      'Webhook did not take the test notification: the connection was refused; a real notification would be retried.',
    );
  });

  it('says the time-out passed when the receiver never answers', async () => {
    receiver.answer('hang');
    const id = await rig.add(webhook, { url: receiver.url });
    assert.deepEqual(await rig.service.test(id), {
      outcome: 'retry',
      reason: 'timeout',
      summary:
        'Webhook did not take the test notification: no answer within the time-out; a real notification would be retried.',
    });
  });

  it('sends nothing and says what to do when the secrets cannot be decrypted', async () => {
    receiver.answer({ status: 200 });
    const before = receiver.requests.length;
    const id = await rig.add(webhook, { url: receiver.url, bearerToken: 'tok-s3cret' });
    assert.deepEqual(await rig.locked.test(id), {
      outcome: 'retry',
      reason: 'provider_secrets_unreadable',
      summary:
        'Webhook did not take the test notification: its secrets could not be decrypted (set them again, or unlock the OS keyring); a real notification would be retried.',
    });
    assert.equal(receiver.requests.length, before);
    assert.deepEqual(
      [rig.service.get(id).health, rig.service.get(id).lastResult?.reason],
      ['failing', 'provider_secrets_unreadable'],
      'the provider list shows why',
    );
  });
});
