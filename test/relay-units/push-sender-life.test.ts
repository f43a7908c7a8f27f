/**
 * The push sender's own life (docs/relay.md "Phone push"): it keeps sending however many pushes went
 * before, it tries a waiting push again when its time comes without anything new to wake it, and when
 * the relay stops it stops at once, leaving a push it had in flight to the next start, which sends it
 * once. The relay runs in this process with its push sender (push-world.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PushSender } from '../../src/relay-server/push-sender.js';
import { waitFor, within } from '../support/wait-for.js';
import {
  ada,
  addDevice,
  adaSender,
  CONTACT,
  device,
  noRefusedPush,
  notify,
  queued,
  refusedTry,
  relay,
  removeAll,
  service,
  startPushWorld,
  stopPushWorld,
  triesOf,
  waitForPush,
} from './push-world.js';

let restarted: PushSender | undefined;

before(startPushWorld);
after(async () => {
  await restarted?.stop();
  await stopPushWorld();
});
afterEach(noRefusedPush);

describe('phone push: the sender keeps going, and stops', () => {
  afterEach(removeAll);

  it('keeps sending after its first 64 pushes: a busy day reaches every phone', async () => {
    const phones = [];
    for (const name of ['Phone', 'Tablet', 'Laptop', 'Watch']) phones.push(await addDevice(ada, name));
    const ids: string[] = [];
    for (let count = 0; count < 17; count++) ids.push(await notify(adaSender));
    // 68 pushes: more than the 64 the sender has in flight at once.
    for (const phone of phones)
      await waitFor(
        () => ids.every((id) => triesOf(phone.subscription, id).length === 1),
        'every notification at every device',
        8000,
      );
  });

  it('tries a waiting push again when its Retry-After ends, with nothing new queued to wake it', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 429, retryAfter: '120' });
    const id = await notify(adaSender);
    await refusedTry(ada, deviceId, 'the push service answered 429; trying again', 1);
    // Only the relay's clock moves: the sender looks at its queue again within a second by itself.
    relay.advance(121_000);
    await waitForPush(async () => (await device(ada, deviceId))?.last_delivery_at, 'the retry delivered');
    assert.deepEqual(
      triesOf(subscription, id).map((push) => push.status),
      [429, 201],
    );
  });

  it('stops at once with a push in flight; the next start sends that push once, and the phone shows no failure', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    // The push service reads the push and never answers, as a slow one would.
    const held = service.holdNext();
    const id = await notify(adaSender);
    assert.equal((await within(held, 'the push at the push service', 4000)).payload['id'], id);
    await within(relay.pushSender!.stop(), 'the push sender stopping', 4000);
    const stoppedAt = relay.clock();
    const [waiting] = await queued(deviceId);
    assert.equal(waiting?.attempts, 0, 'stopping is no failed try');
    assert.ok(waiting.next_attempt_at <= stoppedAt, 'due again at once, not when the claim lapses');
    const shown = await device(ada, deviceId);
    assert.deepEqual([shown?.last_failure, shown?.last_delivery_at], [undefined, undefined]);

    const keys = (await relay.store.push.vapidKeys())!;
    restarted = new PushSender(relay.store, relay.context.relay, relay.context.hub, relay.clock, {
      contact: CONTACT,
      keys,
      allowLoopback: true,
      log: relay.log,
    });
    restarted.start();
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the push sent after the start');
    assert.deepEqual(
      service.deliveredTo(subscription).map((push) => push.payload['id']),
      [id],
    );
  });
});
