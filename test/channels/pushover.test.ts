import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog } from '../support/broker-log.js';
import { useBroker } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';
import { startPushoverApi, type PushoverApi } from '../support/pushover-api.js';
import { waitFor } from '../support/wait-for.js';
import { channelProvider } from './support.js';

/** Pushover through the real notifyd and its outbox, against a stand-in of the Pushover API. */
describe('pushover: alerts by priority, emergency alerts cancelled at the desk', { timeout: 120_000 }, () => {
  const broker = useBroker();
  let api: PushoverApi;

  before(async () => {
    api = await startPushoverApi();
    await channelProvider(broker, 'pushover', {
      userKey: api.user,
      appToken: api.token,
      device: 'pixel',
      // Below Pushover's 30 s minimum: sent as 30, which the API accepts.
      retry: 10,
      expire: 20_000,
      apiUrl: api.url,
    });
  });
  after(() => api.close());

  async function raise(fields: Record<string, unknown>): Promise<string> {
    const created = await callJson(broker, 'POST', '/v1/notifications', { message: 'details', ...fields });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body!['id'] as string;
  }

  it('maps low, normal and high to Pushover priorities -1, 0 and 1, without a receipt', async () => {
    for (const [priority, expected] of [
      ['low', '-1'],
      ['normal', '0'],
      ['high', '1'],
    ] as const) {
      const next = api.nextMessage();
      await raise({ title: `A ${priority} one`, priority });
      const message = await next;
      assert.equal(message.fields['title'], `A ${priority} one`);
      assert.equal(message.fields['priority'], expected);
      assert.equal(message.fields['device'], 'pixel');
      assert.match(message.fields['message']!, /^details\n\n/);
      assert.equal(message.receipt, undefined);
      assert.equal(message.fields['retry'], undefined);
    }
  });

  it('sends a critical one as an emergency alert and cancels its repetition when resolved at the desk', async () => {
    const next = api.nextMessage();
    const id = await raise({ title: 'Production is down', priority: 'critical' });
    const message = await next;
    assert.equal(message.fields['priority'], '2');
    assert.equal(message.fields['retry'], '30', 'retry raised to the API minimum');
    assert.equal(message.fields['expire'], '10800', 'expire cut to the API maximum');
    const receipt = api.receipts.get(message.receipt!)!;
    assert.equal(receipt.cancelled, false);

    const resolved = await callJson(broker, 'PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    assert.equal(resolved.status, 200);
    await waitFor(() => receipt.cancelled, 'the receipt cancelled');
    const cancels = api.calls.filter((call) => call.path.endsWith('/cancel.json'));
    assert.deepEqual(
      cancels.map((call) => [call.path, call.status]),
      [[`/1/receipts/${receipt.receipt}/cancel.json`, 200]],
    );
  });

  it('sends again after a 429 once the wait it asked for is over', async () => {
    api.limitNext(1, 1);
    const id = await raise({ title: 'Over the limit?', priority: 'high' });
    const message = await waitFor(
      () => api.messages.find((m) => m.fields['title'] === 'Over the limit?'),
      'the message sent again',
    );
    assert.equal(message.fields['priority'], '1');
    const items = (await callJson(broker, 'GET', `/v1/outbox?notificationId=${id}`)).body as unknown as {
      operation: string;
      state: string;
      attempts: number;
    }[];
    const send = items.find((item) => item.operation === 'send')!;
    assert.equal(send.state, 'delivered');
    assert.equal(send.attempts, 2, 'the 429 attempt and the one that delivered');
    assert.equal(api.calls.filter((call) => call.status === 429).length, 1);
  });

  it('reports a wrong user key as refused credentials, and logs no key', async () => {
    const wrong = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
    const providerId = await channelProvider(
      broker,
      'pushover',
      { userKey: wrong, appToken: api.token, apiUrl: api.url },
      'pushover with a wrong user key',
    );
    const test = await callJson(broker, 'POST', `/v1/providers/${providerId}/test`);
    assert.equal(test.body!['outcome'], 'reject');
    assert.equal(test.body!['reason'], 'credentials_refused');
    const log = readLog(broker.home);
    const providers = JSON.stringify((await callJson(broker, 'GET', '/v1/providers')).body);
    for (const secret of [wrong, api.user, api.token]) {
      assert.ok(!log.includes(secret), 'a Pushover key is in the broker log');
      assert.ok(!providers.includes(secret), 'a Pushover key is in the providers API');
    }
  });
});
