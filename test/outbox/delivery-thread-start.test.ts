import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

/** How many times the broker started its delivery thread, by its log (every run of that home). */
function threadStarts(broker: BrokerProcess): number {
  return readLog(broker.home)
    .split('\n')
    .filter((line) => line.includes('outbox: the delivery thread started')).length;
}

async function call(broker: BrokerProcess, path: string, body: unknown = {}): Promise<{ id: string }> {
  const response = await broker.request('POST', path, body);
  assert.ok(response.status < 300, `${path} answered ${response.status}`);
  return (await response.json()) as { id: string };
}

describe('the delivery thread of notifyd', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  it('runs only once a provider is enabled, and from the start of a run that has one', async () => {
    const broker = await startBroker();
    try {
      await call(broker, '/v1/notifications', { title: 'Build finished', message: 'no provider yet' });
      const provider = await call(broker, '/v1/providers', {
        kind: 'webhook',
        name: 'hook',
        settings: { url: receiver.url },
      });
      assert.equal(threadStarts(broker), 0, 'no delivery thread while no provider is enabled');
      await call(broker, `/v1/providers/${provider.id}/enable`);
      await waitFor(() => threadStarts(broker) === 1, 'the delivery thread after enabling a provider');
    } finally {
      await broker.stop();
    }
    const restarted = await startBroker({ home: broker.home });
    try {
      await waitFor(() => threadStarts(restarted) === 2, 'the delivery thread at start');
      assert.equal(receiver.received.length, 0, 'started without any delivery');
    } finally {
      await restarted.stop();
      broker.home.cleanup();
    }
  });
});
