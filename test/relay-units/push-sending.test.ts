/**
 * Sending phone pushes (docs/relay-protocol.md "Phone push"): each push encrypted to the device's own
 * keys and signed with the relay's VAPID key for the push service's origin (the stand-in checks both,
 * decrypting with node:crypto), the durable queue's retries and back-off, 404/410 removals and 413
 * shortening. The relay runs in this process with its push sender (push-world.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { assertRequestPush } from '../relay/push-support.js';
import {
  ada,
  addDevice,
  adaSender,
  bob,
  CONTACT,
  device,
  HOUR,
  later,
  noRefusedPush,
  notify,
  queued,
  refusedTry,
  relay,
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

describe('phone push: sending', () => {
  afterEach(removeAll);

  it("encrypts each push to the device's own keys and signs it with the relay's VAPID key for the push service's origin", async () => {
    const phone = await addDevice(ada, 'Phone');
    const tablet = await addDevice(ada, 'Tablet');
    // Some push services answer 200 OK rather than 201 Created: delivered all the same.
    service.answerNext(tablet.subscription, { status: 200 });
    const id = await notify(adaSender);
    // The stand-in decrypted each with that subscription's keys and checked the JWT (aud, exp, sub, k).
    const [push] = await tries(phone.subscription, id, 1);
    await tries(tablet.subscription, id, 1);
    assert.equal(push!.sender, CONTACT);
    assert.equal(push!.status, 201);
    assertRequestPush(push, id, relay.url);
    const shown = await waitForPush(
      async () => (await device(ada, phone.id))?.last_delivery_at,
      'the delivery shown on the device',
    );
    assert.ok(Math.abs(Date.parse(shown) - relay.clock()) < 60_000, shown);
    assert.deepEqual(await queued(phone.id), [], 'a delivered push leaves the queue');
    await waitForPush(async () => (await device(ada, tablet.id))?.last_delivery_at, 'the delivery with 200');
    assert.deepEqual(await queued(tablet.id), []);
  });

  it('keeps the payload within 2 KB and sends an info notification at normal urgency without an answer', async () => {
    const { subscription } = await addDevice(ada);
    const long = await notify(adaSender, { message: 'é'.repeat(4000) });
    const [push] = await tries(subscription, long, 1);
    assert.ok(push!.bytes <= 2048 && push!.bytes > 1900, `${push!.bytes} bytes`);
    const info = await notify(adaSender, { type: 'completed', priority: 'normal', actions: [] });
    const [plain] = await tries(subscription, info, 1);
    assert.equal(plain!.urgency, 'normal');
    assert.equal(plain!.payload['answer'], undefined);
  });

  it('sends "Send test" to that device only: the test payload, for a minute, at normal urgency', async () => {
    const phone = await addDevice(ada, 'Phone');
    const tablet = await addDevice(ada, 'Tablet');
    const sent = await ada.inbox('POST', `/v1/inbox/push/subscriptions/${phone.id}/test`);
    assert.deepEqual([sent.status, sent.body], [202, { queued: true }]);
    const [test] = await tries(phone.subscription, 'notify-relay-test', 1);
    assert.deepEqual(
      [test!.payload['title'], test!.ttl, test!.urgency, test!.topic],
      ['Notify test', 60, 'normal', undefined],
    );
    assert.deepEqual(triesOf(tablet.subscription, 'notify-relay-test'), []);
  });

  it('removes a device the push service says is gone (404, 410), with its queued pushes; the account keeps its others', async () => {
    for (const status of [404, 410]) {
      const gone = await addDevice(ada, `Gone ${status}`);
      const kept = await addDevice(ada, 'Kept');
      service.answerNext(gone.subscription, { status });
      const id = await notify(adaSender);
      await tries(kept.subscription, id, 1);
      await waitForPush(async () => !(await device(ada, gone.id)), `the device removed after ${status}`);
      assert.deepEqual(await queued(gone.id), []);
      assert.ok(await device(ada, kept.id), 'the other device stays');
      assert.match(
        relay.logged.at(-1) ?? '',
        new RegExp(
          `^\\S+Z \\[INFO\\] push: device ${gone.id} removed \\(the push service answered ${status}\\)$`,
        ),
        'the operator reads why the device is gone',
      );
      await removeAll();
    }
  });

  it('waits out 429 with its Retry-After in seconds, then delivers', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 429, retryAfter: '120' });
    const id = await notify(adaSender);
    const refused = await refusedTry(ada, deviceId, 'the push service answered 429; trying again', 1);
    assert.equal(refused.nextAt - refused.failedAt, 120_000);
    later(121_000);
    await waitForPush(
      async () => (await device(ada, deviceId))?.last_delivery_at,
      'the delivery after Retry-After',
    );
    assert.deepEqual(
      triesOf(subscription, id).map((push) => push.status),
      [429, 201],
    );
    assert.deepEqual(await queued(deviceId), []);
  });

  it('backs off 1 s then 2 s on 5xx without Retry-After; an HTTP-date Retry-After is honoured, at most a day', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503 }, { status: 500 });
    await notify(adaSender);
    const first = await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    assert.equal(first.nextAt - first.failedAt, 1000);
    later(1000);
    const second = await refusedTry(ada, deviceId, 'the push service answered 500; trying again', 2);
    assert.equal(second.nextAt - second.failedAt, 2000);
    later(2000);
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the third try delivered');
    await removeAll();

    const dated = await addDevice(ada);
    const at = new Date(Math.ceil((relay.clock() + 2 * HOUR) / 1000) * 1000);
    service.answerNext(dated.subscription, { status: 503, retryAfter: at.toUTCString() });
    await notify(adaSender);
    const byDate = await refusedTry(ada, dated.id, 'the push service answered 503; trying again', 1);
    assert.equal(byDate.nextAt, at.getTime());
    await removeAll();

    const capped = await addDevice(ada);
    service.answerNext(capped.subscription, { status: 429, retryAfter: String(3 * 24 * 3600) });
    await notify(adaSender);
    const aDay = await refusedTry(ada, capped.id, 'the push service answered 429; trying again', 1);
    assert.equal(aDay.nextAt - aDay.failedAt, 24 * HOUR);
  });

  it('keeps its own back-off when Retry-After asks for less, and gives up after 15 tries', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503, retryAfter: '0' }, { status: 503, retryAfter: '1' });
    await notify(adaSender);
    const first = await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    assert.equal(first.nextAt - first.failedAt, 1000);
    // Tries 2 to 13 failed too (the queue counts them), each waiting longer.
    await relay.store.db.run('UPDATE push_queue SET attempts = 13 WHERE subscription_id = ?', [deviceId]);
    later(1000);
    const fourteenth = await refusedTry(
      ada,
      deviceId,
      'the push service answered 503; trying again',
      14,
      first.failedAt,
    );
    assert.equal(fourteenth.nextAt - fourteenth.failedAt, HOUR, 'the back-off stops growing at an hour');
    service.answerNext(subscription, { status: 502 });
    later(HOUR);
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the push given up');
    const shown = await device(ada, deviceId);
    assert.equal(shown!.last_failure, 'the push service answered 502');
  });

  it('gives up at once on another refusal (400, 403) and shows why on the device', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 400 });
    await notify(adaSender);
    await waitForPush(
      async () => (await device(ada, deviceId))?.last_failure === 'the push service refused it (400)',
      'the refusal shown',
    );
    assert.deepEqual(await queued(deviceId), []);
  });

  it('resends a push shortened after 413, and gives up when the short one is too large too', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 413 });
    const id = await notify(adaSender, { message: 'x'.repeat(1500) });
    const [tooLarge, short] = await tries(subscription, id, 2);
    assert.equal(tooLarge!.payload['body'], 'x'.repeat(1500));
    assert.deepEqual(
      [short!.payload['body'], short!.payload['title'], short!.status],
      ['', 'Run this?', 201],
    );
    assert.ok(short!.payload['answer'], 'still answerable');
    service.answerNext(subscription, { status: 413 }, { status: 413 });
    const again = await notify(adaSender);
    await tries(subscription, again, 2);
    await waitForPush(
      async () => (await device(ada, deviceId))?.last_failure === 'the push service refused it (413)',
      'the short push refused too',
    );
    assert.deepEqual(await queued(deviceId), []);
    assert.equal(triesOf(subscription, again).length, 2);
  });

  it('tries again when the push service cannot be reached', async () => {
    const subscription = service.subscribe();
    const unreachable = { ...subscription, endpoint: 'http://127.0.0.1:9/push/nowhere' };
    const added = await ada.inbox('POST', '/v1/inbox/push/subscriptions', unreachable);
    assert.equal(added.status, 201);
    await notify(adaSender);
    const refused = await refusedTry(
      ada,
      added.body['id'] as string,
      'the push service could not be reached; trying again',
      1,
    );
    assert.equal(refused.nextAt - refused.failedAt, 1000);
  });

  it('sends nothing for a notification whose answer time ran out while it waited', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 503, retryAfter: String(24 * 3600) });
    const id = await notify(adaSender);
    await refusedTry(ada, deviceId, 'the push service answered 503; trying again', 1);
    // A day and a minute later, the people signed in meanwhile (a session ends after 12 idle hours).
    for (const step of [11 * HOUR, 11 * HOUR, 2 * HOUR + 60_000]) {
      later(step);
      for (const web of [ada, bob]) assert.equal((await web.get('/inbox')).status, 200);
    }
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the expired push dropped');
    assert.equal(
      (await device(ada, deviceId))!.last_failure,
      'the push service answered 503; trying again',
      'dropping it is no failure of the device',
    );
    assert.deepEqual(
      triesOf(subscription, id).map((push) => push.status),
      [503],
    );
  });
});
