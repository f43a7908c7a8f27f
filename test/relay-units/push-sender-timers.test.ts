/**
 * The push sender's pump and re-check timer as people would notice them (docs/relay.md "Phone push"): a
 * push goes out as soon as it is queued or made due again, not at the next once-a-second look; the look
 * comes back within a second but never sooner than the queue needs; no more than 64 pushes are on their
 * way at once; a wake-up that comes during a look is not lost; a stopped sender queues its pushes on their
 * way again, leaves no timer and sends nothing; a failing database is logged, not a crash. The relay runs in this process with a clock that stands still but when the test moves it; each
 * test starts its own sender, whose timers fire only when the test says (manual-timers.ts).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { openDatabase } from '../../src/relay-server/open-database.js';
import { PushSender } from '../../src/relay-server/push-sender.js';
import { RelayStore } from '../../src/relay-server/store.js';
import { ManualTimers } from './manual-timers.js';
import {
  ada,
  addDevice,
  adaSender,
  CONTACT,
  later,
  noRefusedPush,
  notify,
  queued,
  refusedTry,
  relay,
  removeAll,
  service,
  startPushWorldWith,
  stopPushWorld,
  tries,
  triesOf,
  waitForPush,
} from './push-world.js';

let sender: PushSender;
let timers: ManualTimers;
/** Runs once at the sender's next read of its clock (the first thing a look does), after the read. */
let atNextClockRead: (() => void) | undefined;

before(async () => {
  await startPushWorldWith({ stillClock: true });
  // Each test's own sender takes the place of the relay's.
  await relay.pushSender!.stop();
});
after(stopPushWorld);

/** A sender over `store` with the test's timers and clock, started. */
async function startSender(store: RelayStore): Promise<PushSender> {
  const clock = (): number => {
    const now = relay.clock();
    const then = atNextClockRead;
    atNextClockRead = undefined;
    then?.();
    return now;
  };
  const keys = (await relay.store.push.vapidKeys())!;
  const started = new PushSender(store, relay.context.relay, relay.context.hub, clock, {
    contact: CONTACT,
    keys,
    timers,
    log: relay.log,
    allowLoopback: true,
  });
  started.start();
  return started;
}

beforeEach(async () => {
  timers = new ManualTimers();
  sender = await startSender(relay.store);
});

afterEach(async () => {
  await sender.stop();
  await removeAll();
  noRefusedPush();
});

/** Queued pushes due now, waiting for room among those on their way. */
async function dueNow(): Promise<number> {
  const row = await relay.store.db.get('SELECT COUNT(*) AS due FROM push_queue WHERE next_attempt_at <= ?', [
    relay.clock(),
  ]);
  return Number(row?.['due']);
}

describe('phone push: the sender sends at once, looks again in time, and stops', () => {
  it('sends a push queued while it is idle at once, not at its next look', async () => {
    const { subscription } = await addDevice(ada);
    const id = await notify(adaSender);
    await tries(subscription, id, 1);
  });

  it('goes on at once with a push its answer made due again: the shortened push after a 413', async () => {
    const { subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 413 });
    const id = await notify(adaSender);
    const sent = await tries(subscription, id, 2);
    assert.deepEqual(
      sent.map((push) => push.status),
      [413, 201],
    );
  });

  it('looks again when a waiting push is due, but at least every second, and leaves no timer once the queue is empty', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 429, retryAfter: '120' });
    const id = await notify(adaSender);
    await refusedTry(ada, deviceId, 'the push service answered 429; trying again', 1);
    // The look that claimed it and the one after the 429: each comes back within a second.
    await waitForPush(() => timers.delays.length === 2, 'the look after the refused try');
    assert.deepEqual(timers.delays, [1000, 1000]);
    relay.advance(119_700);
    timers.fire();
    await waitForPush(() => timers.delays.length === 3, 'the look before the retry is due');
    assert.equal(timers.delays[2], 300, 'just when the retry is due');
    relay.advance(300);
    timers.fire();
    await tries(subscription, id, 2);
    await waitForPush(async () => (await queued(deviceId)).length === 0, 'the queue emptied');
    await waitForPush(() => timers.waiting === 0, 'no timer left for an empty queue');
  });

  it('has no more than 64 pushes on their way at once, looks again soon while more wait, and sends those as the first are answered', async () => {
    const phones = [];
    for (const name of ['Phone', 'Tablet', 'Laptop', 'Watch']) phones.push(await addDevice(ada, name));
    const onTheirWay = service.pauseAll();
    const ids: string[] = [];
    // 68 pushes: more than the 64 the sender has in flight at once.
    for (let count = 0; count < 17; count++) ids.push(await notify(adaSender));
    await waitForPush(() => onTheirWay.length === 64, '64 pushes at the push service');
    const looks = timers.delays.length;
    relay.context.hub.emitPushQueued();
    await waitForPush(() => timers.delays.length > looks, 'a look with no room');
    assert.equal(await dueNow(), 4, 'the 4 left wait, unclaimed');
    assert.equal(timers.delays.at(-1), 10, 'a busy queue is looked at again soon, yet not in a loop');
    assert.equal(onTheirWay.length, 64);
    service.answerAll();
    for (const phone of phones)
      await waitForPush(
        () => ids.every((id) => triesOf(phone.subscription, id).length === 1),
        'every notification at every device, once',
      );
  });

  it('looks again when a wake-up comes during a look: a push due meanwhile is not left to the timer', async () => {
    const { subscription } = await addDevice(ada);
    // Tried again in a second (the first back-off).
    service.answerNext(subscription, { status: 429 });
    const id = await notify(adaSender);
    await waitForPush(() => timers.delays.length === 2, 'the look after the refused try');
    // While the next look runs, a moment before the retry is due, the clock reaches it and a wake-up
    // comes, as a newly queued push brings one.
    atNextClockRead = () => later(1000);
    relay.context.hub.emitPushQueued();
    const sent = await tries(subscription, id, 2);
    assert.deepEqual(
      sent.map((push) => push.status),
      [429, 201],
    );
    // One look at a time: a second look beside the first would leave a timer no later look clears.
    await waitForPush(() => timers.waiting === 0, 'no timer left for an empty queue');
  });

  it('stops with pushes on their way: each is queued again, due at once, for the next start', async () => {
    const phones = [];
    for (const name of ['Phone', 'Tablet', 'Laptop']) phones.push(await addDevice(ada, name));
    const onTheirWay = service.pauseAll();
    await notify(adaSender);
    await waitForPush(() => onTheirWay.length === 3, 'the pushes at the push service');
    await sender.stop();
    const stoppedAt = relay.clock();
    for (const phone of phones)
      assert.deepEqual(await queued(phone.id), [{ attempts: 0, next_attempt_at: stoppedAt }], phone.id);
    service.answerAll();
  });

  it('stops during a look without leaving a timer, and sends nothing after', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    service.answerNext(subscription, { status: 429, retryAfter: '120' });
    const id = await notify(adaSender);
    await waitForPush(() => timers.delays.length === 2, 'the look after the refused try');
    const [waiting] = await queued(deviceId);
    let stopping: Promise<void> | undefined;
    atNextClockRead = () => (stopping = sender.stop());
    relay.context.hub.emitPushQueued();
    await waitForPush(() => stopping !== undefined, 'the stop');
    await stopping;
    // A second stop waits for the look the first one came during.
    await sender.stop();
    assert.equal(timers.waiting, 0, 'the re-check before the stop cleared');
    assert.equal(timers.delays.length, 2, 'none asked for by the look the stop came during');
    // Neither a queued push nor the retry's time wakes a stopped sender.
    later(121_000);
    timers.fire();
    await sender.stop();
    assert.deepEqual(await queued(deviceId), [waiting], 'not claimed again');
    assert.equal(triesOf(subscription, id).length, 1);
  });

  it('logs each failure of a database gone under it (a disk error) rather than crash the relay, and looks again a second later: the push it could not settle, the look it could not make', async () => {
    const { subscription } = await addDevice(ada);
    // A sender over its own connection to the relay's database, which the test closes.
    await sender.stop();
    const store = await RelayStore.open(openDatabase({ data: relay.dataDir }));
    sender = await startSender(store);
    const logged = () => relay.logged.filter((line) => line.includes(' [ERROR] push: '));
    const before = logged().length;
    const onTheirWay = service.pauseAll();
    const id = await notify(adaSender);
    await waitForPush(() => onTheirWay.length === 1, 'the push at the push service');
    await store.close();
    service.answerAll();
    await tries(subscription, id, 1);
    await waitForPush(() => logged().length === before + 2, 'the settle and the next look logged');
    // A look that failed is tried again at the re-check, not only when a new push comes.
    assert.equal(timers.waiting, 1, 'a re-check waits after the failed look');
    assert.equal(timers.delays.at(-1), 1000);
    timers.fire();
    await waitForPush(() => logged().length === before + 3, 'the look tried again, and logged');
    for (const line of logged().slice(before))
      assert.match(line, /^\d{4}-\d\d-\d\dT[\d:.]+Z \[ERROR\] push: \S/);
  });
});
