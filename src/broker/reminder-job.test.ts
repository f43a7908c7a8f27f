import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { parseQuietHours, type QuietHours } from '../domain/quiet-hours.js';
import type { TypeCatalog } from '../domain/type-definition.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { AlertFeed, type AlertEvent } from './alert-feed.js';
import { NotificationService } from './notification-service.js';
import { ReminderJob } from './reminder-job.js';

const MINUTE = 60_000;
/** Saturday 28 November 2026, 21:00 UTC: one hour before the quiet night of the tests starts. */
const EVENING = Date.UTC(2026, 10, 28, 21, 0);
const NIGHT = parseQuietHours({
  windows: [{ from: '22:00', to: '07:00' }],
  minimumPriority: 'critical',
  timeZone: 'UTC',
})!;
const MORNING = Date.UTC(2026, 10, 29, 7, 0);

/** Resolves when `predicate` holds, checked every 10 ms; fails after `ms` naming what never came. */
async function within(ms: number, what: string, predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Reminders and snoozes as a person notices them (issue 20): the toast and sound come back when a
 * reminder is due or a snooze ends, quiet hours hold back all but what is important enough, and the
 * job looks again on time. A real database file; the job's clock is moved by hand, or is the real one
 * where its timer is what is tested.
 */
describe('the reminder job', () => {
  let folder: string;
  let db: Db;
  let store: NotificationStore;
  let writes: WriteQueue;
  let alerts: AlertFeed;
  let seen: AlertEvent[];
  let logged: string[];
  let now: number;
  let quiet: QuietHours | undefined;
  let types: TypeCatalog;
  let service: NotificationService;
  let job: ReminderJob;
  let failNextRound: boolean;

  const makeJob = (clock: () => number) =>
    new ReminderJob({
      store,
      writes,
      alerts,
      types: () => {
        if (failNextRound) {
          failNextRound = false;
          throw new Error('the catalog could not be read');
        }
        return types;
      },
      quietHours: () => quiet,
      clock,
      log: {
        info: (line) => logged.push(line),
        warn: (line) => logged.push(line),
        error: (line) => logged.push(line),
      },
    });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'notify-reminder-job-'));
    db = openDatabase(join(folder, 'notify.db'));
    store = new NotificationStore(db);
    writes = new WriteQueue(db);
    alerts = new AlertFeed();
    seen = [];
    alerts.subscribe((event) => seen.push(event));
    logged = [];
    now = EVENING;
    quiet = undefined;
    types = {};
    failNextRound = false;
    let next = 0;
    service = new NotificationService({
      store,
      writes,
      clock: () => now,
      newId: () => `n${++next}`,
      types: () => types,
      alerts,
    });
    job = makeJob(() => now);
  });
  afterEach(() => {
    job.stop();
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const ask = async (priority = 'high', type = 'permission_required') =>
    (await service.create({ title: 'Run the tests?', message: 'm', type, priority })).record.id;
  const reminders = () => seen.filter((event) => event.kind === 'alert');

  it('reminds of an unanswered request every 5 minutes, 3 times, and then keeps quiet', async () => {
    const id = await ask();
    assert.equal(await job.tick(now + 5 * MINUTE - 1), 0, 'not before 5 minutes');
    for (let reminder = 1; reminder <= 3; reminder++) {
      assert.equal(await job.tick(EVENING + reminder * 5 * MINUTE), 1, `reminder ${reminder}`);
      assert.ok(
        logged.includes(`notification ${id} alerts again: reminder ${reminder} of 3`),
        logged.join('\n'),
      );
    }
    assert.deepEqual(
      reminders().map((event) => event.kind === 'alert' && [event.reason, event.record.id]),
      [
        ['reminder', id],
        ['reminder', id],
        ['reminder', id],
      ],
    );
    assert.equal(await job.tick(EVENING + 60 * MINUTE), 0, 'the three are used up');
    assert.equal(store.nextAlertAt(), undefined);
  });

  it("uses the type's own reminders, and never reminds of news", async () => {
    types = { deploy: { enabled: true, remindEveryMinutes: 2, remindTimes: 1 } };
    const deploy = await ask('normal', 'deploy');
    await ask('normal', 'info');
    assert.equal(await job.tick(EVENING + 2 * MINUTE), 1);
    assert.ok(logged.includes(`notification ${deploy} alerts again: reminder 1 of 1`));
    assert.equal(await job.tick(EVENING + 60 * MINUTE), 0);
  });

  it('brings a snoozed request back when its snooze ends, whatever its type', async () => {
    const id = await ask('normal', 'info');
    await service.snoozeFor(id, 15);
    assert.equal(await job.tick(EVENING + 15 * MINUTE - 1), 0);
    assert.equal(await job.tick(EVENING + 15 * MINUTE), 1);
    assert.ok(logged.includes(`notification ${id} alerts again: its snooze ended`));
    const back = reminders()[0];
    assert.ok(back?.kind === 'alert' && back.reason === 'snooze');
    assert.equal(store.get(id)?.snoozedUntil, undefined, 'no longer snoozed');
    // Toasts and sounds show the request the alert carries: as it is now, not as it was snoozed.
    assert.equal(back.record.snoozedUntil, undefined, 'the alert carries it no longer snoozed');
  });

  it("quiet hours hold a high request's reminder until they end; a critical one reminds on time", async () => {
    quiet = NIGHT;
    now = Date.UTC(2026, 10, 28, 22, 55);
    const high = await ask('high');
    const critical = await ask('critical');
    const due = now + 5 * MINUTE;
    assert.equal(await job.tick(due), 1, 'only the critical one, inside quiet hours');
    assert.deepEqual(
      reminders().map((event) => event.record.id),
      [critical],
    );
    assert.equal(store.get(high)?.status, 'active');
    assert.deepEqual(
      store.alertsDue(MORNING, 10).map((alert) => [alert.record.id, alert.dueAt]),
      [
        [critical, due + 5 * MINUTE],
        [high, MORNING],
      ],
      'the held one is due when the night ends, not spent',
    );
    assert.equal(await job.tick(MORNING), 2);
    assert.ok(logged.includes(`notification ${high} alerts again: reminder 1 of 3`));

    await service.dismiss(high);
    await service.dismiss(critical);
    quiet = { ...NIGHT, minimumPriority: 'high' };
    now = Date.UTC(2026, 10, 29, 23, 0);
    const allowed = await ask('high');
    assert.equal(await job.tick(now + 5 * MINUTE), 1, 'high is important enough for these quiet hours');
    assert.equal(reminders().at(-1)?.record.id, allowed);
  });

  it('a snooze that ends in quiet hours comes back when they end', async () => {
    quiet = NIGHT;
    const id = await ask('normal', 'info');
    await service.snoozeFor(id, 90);
    assert.equal(await job.tick(EVENING + 90 * MINUTE), 0, 'held');
    assert.equal(store.get(id)?.snoozedUntil, MORNING);
    assert.equal(await job.tick(MORNING), 1);
    assert.ok(logged.includes(`notification ${id} alerts again: its snooze ended`));
  });

  it('alerts a backlog after a long sleep of the machine in rounds of 200', async () => {
    for (let index = 0; index < 201; index++) await ask('normal', 'input_required');
    assert.equal(await job.tick(EVENING + 6 * MINUTE), 200);
    assert.equal(await job.tick(EVENING + 6 * MINUTE), 1);
  });

  describe('on a timer the test moves', () => {
    beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
    afterEach(() => mock.timers.reset());

    /** Lets the job's round (setImmediate) and its writes run; the mocked timers stay where they are. */
    const settle = async () => {
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    const pass = async (ms: number) => {
      now += ms;
      mock.timers.tick(ms);
      await settle();
    };
    const snoozedUntil = async (until: number) => {
      const id = await ask('normal', 'info');
      await writes.run(() => store.snooze(id, until));
      return id;
    };

    it('looks again exactly when the next snooze ends, not before', async () => {
      await snoozedUntil(now + 5_000);
      job.start();
      await settle();
      await pass(4_999);
      assert.deepEqual(reminders(), []);
      await pass(1);
      assert.equal(reminders().length, 1);
    });

    it('notices a clock that jumped within a minute, with nothing due by its own clock', async () => {
      await snoozedUntil(now + 60 * MINUTE);
      job.start();
      await settle();
      now += 60 * MINUTE;
      await pass(MINUTE - 1);
      assert.deepEqual(reminders(), []);
      await pass(1);
      assert.equal(reminders().length, 1);
    });

    it('snoozed again for longer, it looks when the new snooze ends, not also when the old one would have', async () => {
      const looks = mock.method(store, 'alertsDue');
      const id = await snoozedUntil(now + 30_000);
      job.start();
      await settle();
      await writes.run(() => store.snooze(id, now + 50_000));
      job.wake();
      await settle();
      assert.equal(looks.mock.callCount(), 2);
      await pass(30_000);
      assert.equal(looks.mock.callCount(), 2, 'the old end is forgotten');
      await pass(20_000);
      assert.equal(looks.mock.callCount(), 3);
      assert.equal(reminders().length, 1);
    });

    it('with nothing to remind of, looks once and then sleeps: an idle broker does not keep looking', async () => {
      const looks = mock.method(store, 'alertsDue');
      job.start();
      await settle();
      for (let minute = 0; minute < 3; minute++) await pass(MINUTE);
      assert.equal(looks.mock.callCount(), 1);
      await ask('normal', 'input_required');
      job.wake();
      await settle();
      await pass(5 * MINUTE);
      assert.equal(reminders().length, 1, 'a reminder made later still comes');
    });

    it('tries a failed round again after 250 ms', async () => {
      await snoozedUntil(now - 1);
      failNextRound = true;
      job.start();
      await settle();
      assert.ok(logged.includes('reminders failed: the catalog could not be read'));
      await pass(249);
      assert.deepEqual(reminders(), []);
      await pass(1);
      assert.equal(reminders().length, 1);
    });

    it('a snooze ending now, made while a round alerts, comes back in that round, not later', async () => {
      await snoozedUntil(now - 1);
      const second = await ask('normal', 'info');
      alerts.subscribe((event) => {
        if (event.kind !== 'alert' || event.record.id === second) return;
        store.snooze(second, now - 1);
        job.wake();
      });
      job.start();
      await settle();
      assert.deepEqual(
        reminders().map((event) => event.record.id),
        ['n1', second],
      );
    });

    it('looks nothing up before it is started or after it is stopped', async () => {
      const looks = mock.method(store, 'alertsDue');
      await snoozedUntil(now - 1);
      job.wake();
      await settle();
      assert.equal(looks.mock.callCount(), 0, 'not started');
      job.start();
      await settle();
      assert.equal(reminders().length, 1);
      await snoozedUntil(now + 1_000);
      job.wake();
      await settle();
      job.stop();
      const before = looks.mock.callCount();
      await pass(2_000);
      job.wake();
      await settle();
      assert.equal(looks.mock.callCount(), before, 'stopped');
      assert.equal(reminders().length, 1);
    });

    it('a flood of due times after its next look costs no extra look; an earlier one wakes it once', async () => {
      const looks = mock.method(store, 'alertsDue');
      await snoozedUntil(now + 10_000);
      job.start();
      await settle();
      assert.equal(looks.mock.callCount(), 1);
      for (let index = 0; index < 5; index++) job.wakeFor(now + 10_000 + index * 1_000);
      await settle();
      assert.equal(looks.mock.callCount(), 1, 'due at or after the look it has planned');
      await snoozedUntil(now + 4_000);
      job.wakeFor(now + 4_000);
      await settle();
      assert.equal(looks.mock.callCount(), 2, 'due before it');
      await pass(4_000);
      assert.equal(looks.mock.callCount(), 3, 'the earlier snooze ends');
      await pass(6_000);
      assert.equal(looks.mock.callCount(), 4, 'the later one, once: the replaced timer is gone');
      assert.equal(reminders().length, 2);
    });
  });

  describe('on its own timer', () => {
    it('started, alerts what is due now, and a snooze made while it sleeps comes back on time', async () => {
      job = makeJob(() => Date.now());
      now = Date.now();
      const overdue = await ask('normal', 'info');
      await writes.run(() => store.snooze(overdue, Date.now() - 1));
      job.start();
      await within(5_000, 'the overdue snooze to come back', () => reminders().length === 1);

      now = Date.now();
      const later = await ask('normal', 'info');
      await writes.run(() => store.snooze(later, Date.now() + 300));
      job.wake();
      await within(5_000, 'the snooze of 300 ms to end', () => reminders().length === 2);
      assert.equal(reminders()[1]!.record.id, later);
    });

    it('a due time earlier than its timer wakes it; a later one leaves it asleep', async () => {
      job = makeJob(() => Date.now());
      now = Date.now();
      const far = await ask('normal', 'info');
      await writes.run(() => store.snooze(far, Date.now() + 60 * MINUTE));
      job.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const soon = await ask('normal', 'info');
      await writes.run(() => store.snooze(soon, Date.now() + 200));
      job.wakeFor(Date.now() + 200);
      await within(5_000, 'the earlier snooze to end', () => reminders().length === 1);
      assert.equal(reminders()[0]!.record.id, soon);
    });
  });
});
