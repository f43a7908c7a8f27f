import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gotify } from '../../src/delivery/providers/gotify/gotify.js';
import { ntfy } from '../../src/delivery/providers/ntfy/ntfy.js';
import { webhook } from '../../src/delivery/providers/webhook/webhook.js';
import { operation } from './support/fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

const signal = () => AbortSignal.timeout(5000);

describe('provider settings and lifecycle edges', () => {
  let receiver: HttpReceiver;
  before(async () => {
    receiver = await startHttpReceiver();
  });
  after(() => receiver.close());

  it('webhook rejects with invalid_signing_secret, sending nothing, when the secret is not base64', async () => {
    const before = receiver.requests.length;
    const result = await webhook.deliver(operation(), {
      settings: { url: receiver.url, signingSecret: 'whsec_not base64!' },
      signal: signal(),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'invalid_signing_secret' });
    assert.equal(receiver.requests.length, before);
  });

  it('webhook sends the same webhook-id and body on every retry of one item', async () => {
    receiver.answer({ status: 503 });
    const op = operation();
    await webhook.deliver(op, { settings: { url: receiver.url }, signal: signal() });
    await webhook.deliver(op, { settings: { url: receiver.url }, signal: signal() });
    const [first, second] = receiver.requests.slice(-2);
    assert.equal(first?.headers['webhook-id'], op.idempotencyKey);
    assert.equal(second?.headers['webhook-id'], op.idempotencyKey);
    assert.equal(first?.body, second?.body);
  });

  it('webhook rejects a header value with a line break instead of sending it', async () => {
    const result = await webhook.deliver(operation(), {
      settings: { url: receiver.url, headerName: 'X-Key', headerValue: 'a\r\nInjected: 1' },
      signal: signal(),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'invalid_header_value' });
  });

  it('ntfy sends basic auth when a user and password are set and no token', async () => {
    receiver.answer({ status: 200 });
    await ntfy.deliver(operation(), {
      settings: { serverUrl: receiver.url, topic: 'alerts', username: 'phil', password: 'pä55' },
      signal: signal(),
    });
    assert.equal(
      receiver.requests.at(-1)?.headers.authorization,
      `Basic ${Buffer.from('phil:pä55').toString('base64')}`,
    );
  });

  it('ntfy rejects with invalid_topic when the topic breaks ntfy grammar', async () => {
    const result = await ntfy.deliver(operation(), {
      settings: { serverUrl: receiver.url, topic: 'a/b' },
      signal: signal(),
    });
    assert.deepEqual(result, { outcome: 'reject', reason: 'invalid_topic' });
  });

  it('gotify rejects a clear with client_token_missing when no client token is set', async () => {
    const result = await gotify.deliver(
      operation({ operation: 'clear', event: 'notification.dismissed', reference: '7' }),
      {
        settings: { serverUrl: receiver.url, appToken: 'A' },
        signal: signal(),
      },
    );
    assert.deepEqual(result, { outcome: 'reject', reason: 'client_token_missing' });
  });

  it('gotify counts a clear as delivered when the message was already deleted (404)', async () => {
    receiver.answer({ status: 404, body: '{"error":"Not Found"}' });
    const result = await gotify.deliver(
      operation({ operation: 'clear', event: 'notification.resolved', reference: '7' }),
      {
        settings: { serverUrl: receiver.url, appToken: 'A', clientToken: 'C' },
        signal: signal(),
      },
    );
    assert.deepEqual(result, { outcome: 'delivered', status: 404 });
  });
});
