/**
 * The relay's durable push queue while a push is on its way (docs/relay.md "Phone push"): the push
 * service is slow to answer (the stand-in keeps the push waiting), so the sender's request is open
 * while the person's next notifications come and go. A push on its way is never sent a second time,
 * and a notification that changed meanwhile goes out again at once with what it says now. The relay
 * runs in this process with its push sender (push-world.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { within } from '../support/wait-for.js';
import {
  ada,
  addDevice,
  adaSender,
  noRefusedPush,
  notify,
  queued,
  redeliver,
  removeAll,
  service,
  startPushWorld,
  stopPushWorld,
  tries,
  triesOf,
  waitForPush,
} from './push-world.js';

before(startPushWorld);
after(stopPushWorld);
afterEach(noRefusedPush);

describe('phone push: while a push is on its way', () => {
  afterEach(removeAll);

  it('never sends it a second time while the next notifications go out', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    const paused = service.pauseNext();
    const first = await notify(adaSender);
    const onItsWay = await within(paused, 'the first push at the push service', 4000);
    assert.equal(onItsWay.push.payload['id'], first);
    const second = await notify(adaSender);
    const third = await notify(adaSender);
    await tries(subscription, second, 1);
    await tries(subscription, third, 1);
    onItsWay.answer();
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the queue emptied');
    assert.deepEqual(
      [first, second, third].map((id) => triesOf(subscription, id).length),
      [1, 1, 1],
    );
  });

  it('pushes a notification changed meanwhile again at once, with its new text', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    const paused = service.pauseNext();
    const id = await notify(adaSender, { updated_at: '2026-11-25T17:43:00.000Z' });
    const onItsWay = await within(paused, 'the push at the push service', 4000);
    await redeliver(id, { message: 'npm publish --force', updated_at: '2026-11-25T17:44:00.000Z' });
    onItsWay.answer();
    const [before, changed] = await tries(subscription, id, 2);
    assert.deepEqual(
      [before!.payload['body'], changed!.payload['body'], changed!.payload['revision']],
      ['npm publish', 'npm publish --force', 2],
    );
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the queue emptied');
    assert.equal(triesOf(subscription, id).length, 2);
  });
});
