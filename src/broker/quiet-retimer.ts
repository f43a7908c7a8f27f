import { quietUntil, retimedAfterChange, type QuietHours } from '../domain/quiet-hours.js';
import type { Logger } from '../log/logger.js';
import type { NotificationStore } from '../store/notification-store.js';
import type { OutboxStore } from '../store/outbox-store.js';
import type { WriteQueue } from '../store/write-queue.js';
import type { Clock } from './clock.js';

export interface QuietRetimerDeps {
  notifications: NotificationStore;
  outbox: OutboxStore;
  writes: WriteQueue;
  clock: Clock;
  /** The dispatcher and the reminder job look again: what they wait for moved. */
  wakeOutbox: () => void;
  wakeReminders: () => void;
  log: Logger;
}

/**
 * Quiet hours changed or were removed: what the old quiet time held until its end (sends not yet
 * tried, reminders and the returns of snoozes) is due at once, or at the end of the new quiet time
 * when that still holds it back. Held things are found by their due time, which is exactly the old
 * quiet time's end (quietUntil), so nothing else due by then moves.
 */
export class QuietRetimer {
  constructor(private readonly deps: QuietRetimerDeps) {}

  async changed(before: QuietHours | undefined, after: QuietHours | undefined): Promise<void> {
    const now = this.deps.clock();
    const heldUntil = before && quietUntil(before, now);
    if (heldUntil === undefined) return;
    const { sends, alerts } = await this.deps.writes.run(() => {
      const sends = this.deps.outbox.heldSends(heldUntil);
      for (const send of sends) {
        const dueAt = retimedAfterChange(
          after,
          send.priority,
          now,
          send.createdAt + send.delaySeconds * 1000,
        );
        if (dueAt !== heldUntil) this.deps.outbox.retime(send.seq, dueAt, now);
      }
      const alerts = this.deps.notifications.alertsAt(heldUntil);
      for (const { record, schedule, dueAt } of alerts) {
        const next = retimedAfterChange(after, record.priority, now);
        if (next === heldUntil) continue;
        const moved =
          schedule.snoozedUntil !== undefined
            ? { ...schedule, snoozedUntil: next }
            : { ...schedule, remindAt: next };
        this.deps.notifications.reschedule(record.id, dueAt, moved);
      }
      return { sends: sends.length, alerts: alerts.length };
    });
    if (sends + alerts === 0) return;
    this.deps.log.info(
      `quiet hours changed: ${sends} held send(s) and ${alerts} held reminder(s) re-timed to the new quiet hours`,
    );
    this.deps.wakeOutbox();
    this.deps.wakeReminders();
  }
}
