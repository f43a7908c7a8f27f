import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTempHome, startBroker } from '../support/broker-process.js';
import { callJson, enabledRouteTo, OUTBOX_BROKER } from '../support/outbox-broker.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

const NOTIFICATIONS = 20;

describe('outbox after kill -9', () => {
  const home = createTempHome();
  after(() => home.cleanup());

  it('delivers every item at least once after a restart, duplicates with the same idempotency key', async () => {
    // While the broker runs the first time the receiver never answers: items are in flight or pending.
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 60_000 }));
    try {
      const first = await startBroker({ home, script: OUTBOX_BROKER });
      await enabledRouteTo(first, receiver.url);
      const ids: string[] = [];
      for (let i = 0; i < NOTIFICATIONS; i++) {
        const created = await callJson(first, 'POST', '/v1/notifications', { title: `n${i}`, message: 'm' });
        ids.push(created.body!['id'] as string);
      }
      const before = await waitFor(async () => {
        const counts = (await callJson(first, 'GET', '/v1/outbox/counts')).body!;
        return counts['in_flight'] > 0 && counts['pending'] > 0 && receiver.received.length > 0 && counts;
      }, 'items both in flight (some at the receiver) and pending');
      assert.equal(before['in_flight'] + before['pending'], NOTIFICATIONS);
      await first.kill();
      const seenBeforeCrash = receiver.received.length;
      assert.ok(seenBeforeCrash > 0, 'some attempts reached the receiver before the crash');

      receiver.answer = () => ({ status: 200 });
      const second = await startBroker({ home, script: OUTBOX_BROKER });
      try {
        await waitFor(
          async () =>
            (await callJson(second, 'GET', '/v1/outbox/counts')).body!['delivered'] === NOTIFICATIONS,
          'every item delivered after the restart',
        );
      } finally {
        await second.stop();
      }
      const keysById = new Map<string, Set<string>>();
      for (const request of receiver.received) {
        const id = (request.body['notification'] as { id: string }).id;
        const keys = keysById.get(id) ?? new Set();
        keys.add(String(request.headers['idempotency-key']));
        keysById.set(id, keys);
      }
      assert.deepEqual(
        [...keysById.keys()].sort(),
        [...ids].sort(),
        'every notification reached the receiver',
      );
      for (const [id, keys] of keysById) assert.equal(keys.size, 1, `${id} arrived with more than one key`);
      assert.ok(receiver.received.length > NOTIFICATIONS, 'the interrupted attempts were sent again');
    } finally {
      await receiver.close();
    }
  });
});
