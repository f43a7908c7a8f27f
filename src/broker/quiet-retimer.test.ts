import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { webhook } from '../delivery/providers/webhook/webhook.js';
import { parseQuietHours, type QuietHours } from '../domain/quiet-hours.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { OutboxStore } from '../store/outbox-store.js';
import { ProviderStore } from '../store/provider-store.js';
import { RouteStore } from '../store/route-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { AlertFeed, type AlertEvent } from './alert-feed.js';
import { NotificationService } from './notification-service.js';
import { OutboxEnqueuer } from './outbox-enqueuer.js';
import { QuietRetimer } from './quiet-retimer.js';
import { ReminderJob } from './reminder-job.js';

/** Saturday 28 November 2026 (UTC), a quiet night from 22:00 to 07:00. */
const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour, minute);
const NIGHT = parseQuietHours({ windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' })!;
const MORNING = at(29, 7);

/**
 * Quiet hours changed while they hold sends and reminders back (issue 20): a person who ends them early,
 * or moves their end, gets what they held when the new quiet hours say, not at the old end. A real
 * database, the real enqueue (which holds the sends) and reminder job (which holds the reminders), and
 * a clock the test moves.
 */
describe('quiet hours changed while they hold things back', () => {
  let folder: string;
  let db: Db;
  let store: NotificationStore;
  let outbox: OutboxStore;
  let writes: WriteQueue;
  let seen: AlertEvent[];
  let logged: string[];
  let woken: { outbox: number; reminders: number };
  let now: number;
  let quiet: QuietHours | undefined;
  let service: NotificationService;
  let job: ReminderJob;
  let retimer: QuietRetimer;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'notify-quiet-retimer-'));
    db = openDatabase(join(folder, 'notify.db'));
    store = new NotificationStore(db);
    outbox = new OutboxStore(db);
    writes = new WriteQueue(db);
    const providers = new ProviderStore(db);
    const routes = new RouteStore(db);
    const created = at(1, 12);
    providers.save(
      {
        id: 'p1',
        kind: 'webhook',
        name: 'Phone hook',
        enabled: true,
        settings: { url: 'http://127.0.0.1:9/hook', timeoutSeconds: 5 },
        createdAt: created,
        updatedAt: created,
      },
      new Map(),
    );
    const route = { providerId: 'p1', enabled: true, minimumPriority: 'low' as const, includeMessage: true };
    routes.save({
      ...route,
      id: 'now',
      name: 'At once',
      delaySeconds: 0,
      createdAt: created,
      updatedAt: created,
    });
    routes.save({
      ...route,
      id: 'later',
      name: 'After three hours',
      delaySeconds: 3 * 3600,
      createdAt: created,
      updatedAt: created,
    });
    const enqueuer = new OutboxEnqueuer({
      outbox,
      routes,
      providers,
      kinds: [webhook],
      quietHours: () => quiet,
    });
    const alerts = new AlertFeed();
    seen = [];
    alerts.subscribe((event) => seen.push(event));
    logged = [];
    woken = { outbox: 0, reminders: 0 };
    now = at(28, 22, 55);
    quiet = NIGHT;
    let next = 0;
    service = new NotificationService({
      store,
      writes,
      clock: () => now,
      newId: () => `n${++next}`,
      types: () => ({}),
      withinWrite: (change) => enqueuer.enqueue(change),
      alerts,
    });
    const log = {
      info: (line: string) => logged.push(line),
      warn: (line: string) => logged.push(line),
      error: (line: string) => logged.push(line),
    };
    job = new ReminderJob({
      store,
      writes,
      alerts,
      types: () => ({}),
      quietHours: () => quiet,
      clock: () => now,
      log,
    });
    retimer = new QuietRetimer({
      notifications: store,
      outbox,
      writes,
      clock: () => now,
      wakeOutbox: () => woken.outbox++,
      wakeReminders: () => woken.reminders++,
      log,
    });
  });
  afterEach(() => {
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** At 22:55 a permission request (reminded at 23:00, held) and news snoozed until 23:25 (held). */
  const holdANight = async () => {
    const ask = (
      await service.create({ title: 'Deploy?', message: 'm', type: 'permission_required', priority: 'high' })
    ).record.id;
    const news = (
      await service.create({ title: 'Build done', message: 'm', type: 'info', priority: 'normal' })
    ).record.id;
    await service.snoozeFor(news, 30);
    now = at(28, 23, 25);
    assert.equal(await job.tick(), 0, 'both held by the night');
    assert.deepEqual(dueAlerts(), [
      [ask, MORNING],
      [news, MORNING],
    ]);
    assert.deepEqual(dueSends(ask), { now: MORNING, later: MORNING });
    now = at(28, 23, 30);
    return { ask, news };
  };
  const dueAlerts = () => store.alertsDue(at(30, 0), 10).map((alert) => [alert.record.id, alert.dueAt]);
  const dueSends = (id: string) =>
    Object.fromEntries(outbox.list(undefined, 10, id).map((item) => [item.routeId, item.nextAttemptAt]));
  const change = async (after: QuietHours | undefined) => {
    const before = quiet;
    quiet = after;
    await retimer.changed(before, after);
  };

  it('ended early, what they held comes at once; a route delay still counts from the notification', async () => {
    const { ask, news } = await holdANight();
    await change(undefined);
    assert.deepEqual(dueSends(ask), { now: at(28, 23, 30), later: at(29, 1, 55) });
    assert.deepEqual(dueSends(news), { now: at(28, 23, 30), later: at(29, 1, 55) });
    assert.equal(await job.tick(), 2, 'the reminder and the end of the snooze, now');
    assert.deepEqual(
      seen
        .filter((event) => event.kind === 'alert')
        .map((event) => event.kind === 'alert' && [event.reason, event.record.id]),
      [
        ['reminder', ask],
        ['snooze', news],
      ],
    );
    assert.deepEqual(woken, { outbox: 1, reminders: 1 });
    assert.ok(
      logged.includes(
        'quiet hours changed: 4 held send(s) and 2 held reminder(s) re-timed to the new quiet hours',
      ),
      logged.join('\n'),
    );
  });

  it('made to end later, what they held waits for the new end; the snooze stays a snooze', async () => {
    const { ask, news } = await holdANight();
    const until9 = parseQuietHours({ windows: [{ from: '22:00', to: '09:00' }], timeZone: 'UTC' })!;
    await change(until9);
    assert.deepEqual(dueSends(ask), { now: at(29, 9), later: at(29, 9) });
    assert.deepEqual(dueAlerts(), [
      [ask, at(29, 9)],
      [news, at(29, 9)],
    ]);
    assert.equal(store.get(news)?.snoozedUntil, at(29, 9), 'still snoozed, until the new end');
    now = MORNING;
    assert.equal(await job.tick(), 0, 'not at the old end');
    now = at(29, 9);
    assert.equal(await job.tick(), 2);
    const reasons = seen.flatMap((event) =>
      event.kind === 'alert' ? [[event.reason, event.record.id]] : [],
    );
    assert.deepEqual(reasons, [
      ['reminder', ask],
      ['snooze', news],
    ]);
  });

  it('letting high priority through, the high request comes at once and the news keeps waiting', async () => {
    const { ask, news } = await holdANight();
    await change({ ...NIGHT, minimumPriority: 'high' });
    assert.deepEqual(dueSends(ask), { now: at(28, 23, 30), later: at(29, 1, 55) });
    assert.deepEqual(dueSends(news), { now: MORNING, later: MORNING });
    assert.deepEqual(dueAlerts(), [
      [ask, at(28, 23, 30)],
      [news, MORNING],
    ]);
  });

  it('changed outside quiet time, or quiet hours newly set, nothing moves and nothing is woken', async () => {
    const { ask } = await holdANight();
    now = at(29, 12);
    await change(undefined);
    quiet = NIGHT;
    now = at(28, 23, 30);
    await retimer.changed(undefined, NIGHT);
    assert.deepEqual(dueSends(ask), { now: MORNING, later: MORNING });
    assert.equal(dueAlerts().length, 2);
    assert.deepEqual(woken, { outbox: 0, reminders: 0 });
    assert.deepEqual(logged, []);
  });

  it('the reminders it held of evening requests come at once, and their sends made before it stay as they were', async () => {
    now = at(28, 21, 55);
    const ask = async () =>
      (
        await service.create({
          title: 'Deploy?',
          message: 'm',
          type: 'permission_required',
          priority: 'high',
        })
      ).record.id;
    const [first, second] = [await ask(), await ask()];
    now = at(28, 22, 0);
    assert.equal(await job.tick(), 0, 'the first reminders, held');
    now = at(28, 22, 55);
    await service.create({ title: 'Build done', message: 'm', type: 'info', priority: 'normal' });
    now = at(28, 23, 30);
    await change(undefined);
    assert.deepEqual(woken, { outbox: 1, reminders: 1 });
    assert.equal(await job.tick(), 2);
    assert.deepEqual(dueSends(first), { now: at(28, 21, 55), later: at(29, 0, 55) });
    assert.deepEqual(dueSends(second), { now: at(28, 21, 55), later: at(29, 0, 55) });
  });

  it('changed during quiet time with nothing held, nothing is woken', async () => {
    now = at(28, 23, 30);
    await change(undefined);
    assert.deepEqual(woken, { outbox: 0, reminders: 0 });
    assert.deepEqual(logged, []);
  });
});
