import { quietHoldsBack, quietUntil, type QuietHours } from '../domain/quiet-hours.js';
import { decideAlert, reminderPolicy } from '../domain/reminders.js';
import type { TypeCatalog } from '../domain/type-definition.js';
import type { Logger } from '../log/logger.js';
import type { NotificationStore } from '../store/notification-store.js';
import type { WriteQueue } from '../store/write-queue.js';
import type { AlertFeed } from './alert-feed.js';
import type { Clock } from './clock.js';

/** Alerts per round at most: a backlog (after a long sleep of the machine) goes in steps. */
const ROUND_LIMIT = 200;
/**
 * The longest sleep between looks: a clock that jumped (a suspended laptop, a changed time zone) is
 * noticed within this long even when no timer is due.
 */
const MAX_SLEEP_MS = 60_000;
const RETRY_MS = 250;

export interface ReminderJobDeps {
  store: NotificationStore;
  writes: WriteQueue;
  alerts: AlertFeed;
  types: () => TypeCatalog;
  quietHours: () => QuietHours | undefined;
  clock: Clock;
  log: Logger;
}

/**
 * Brings back snoozed notifications when their snooze ends and reminds of unresolved ones (issue 20),
 * each through an alert event the toasts and sounds act on. Due times live in the database (snoozed
 * until, next reminder), never only in timers: a restart loses none. Quiet hours move an alert below
 * their priority to their end. One timer sleeps until the earliest due time.
 */
export class ReminderJob {
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (the job's clock); undefined while none is set. */
  #timerAt: number | undefined;
  #running = false;
  #again = false;
  #stopped = true;

  constructor(private readonly deps: ReminderJobDeps) {}

  /** Alerts what is due at `now`; returns how many alerted. */
  async tick(now = this.deps.clock()): Promise<number> {
    const types = this.deps.types();
    const quiet = this.deps.quietHours();
    let alerted = 0;
    for (const { record, schedule, dueAt } of this.deps.store.alertsDue(now, ROUND_LIMIT)) {
      const policy = reminderPolicy(record.type, types);
      const holdsBack = quietHoldsBack(quiet, record.priority, now);
      const decision = decideAlert(schedule, policy, now, holdsBack ? quietUntil(quiet!, now) : undefined);
      const updated = await this.deps.writes.run(() =>
        this.deps.store.reschedule(record.id, dueAt, decision.next),
      );
      if (!updated || decision.kind !== 'alert') continue;
      alerted++;
      this.deps.log.info(
        `notification ${record.id} alerts again: ${
          decision.reason === 'snooze'
            ? 'its snooze ended'
            : `reminder ${decision.next.remindersSent} of ${policy!.times}`
        }`,
      );
      this.deps.alerts.publish({ kind: 'alert', reason: decision.reason, record: updated });
    }
    return alerted;
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timerAt = undefined;
  }

  /**
   * A change brought an alert due no earlier than `dueAt`: look again only if the job would not look by
   * then anyway. A flood of requests that remind then costs one look, not one per request.
   */
  wakeFor(dueAt: number): void {
    if (this.#timerAt !== undefined && this.#timerAt <= dueAt) return;
    this.wake();
  }

  /** Something may have changed a due time (a create, a snooze, a clock that moved): look again now. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timerAt = undefined;
    this.#running = true;
    setImmediate(() => void this.#round());
  }

  async #round(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.tick();
      } catch (error) {
        this.deps.log.error(`reminders failed: ${(error as Error).message}`);
      }
    } while (this.#again && !this.#stopped);
    this.#running = false;
    if (!this.#stopped) this.#sleep();
  }

  #sleep(): void {
    const next = this.deps.store.nextAlertAt();
    if (next === undefined) return;
    // Still due after a round: a write failed or a backlog is left; the next try comes a little later.
    const now = this.deps.clock();
    const wait = Math.min(Math.max(RETRY_MS, next - now), MAX_SLEEP_MS);
    this.#timerAt = now + wait;
    this.#timer = setTimeout(() => this.wake(), wait);
    this.#timer.unref();
  }
}
