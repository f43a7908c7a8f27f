import { activeDefinition, type TypeCatalog } from './type-definition.js';

/** How often an unresolved notification of a type alerts again, and how many times at most. */
export interface ReminderPolicy {
  everyMs: number;
  times: number;
}

/** The types that remind unless their definition says otherwise (issue 20). */
export const REMINDED_BY_DEFAULT: readonly string[] = ['permission_required', 'input_required'];
export const DEFAULT_REMIND_EVERY_MINUTES = 5;
export const DEFAULT_REMIND_TIMES = 3;
/** A day between reminders, and twenty reminders, at most: beyond that a reminder is noise. */
export const MAX_REMIND_EVERY_MINUTES = 1440;
export const MAX_REMIND_TIMES = 20;

/**
 * A type's reminders: its enabled definition's `remindEveryMinutes` and `remindTimes` (either 0 = none),
 * each falling back to the default; types other than the defaults remind only when a definition sets
 * `remindEveryMinutes`. Undefined = never.
 */
export function reminderPolicy(type: string, catalog: TypeCatalog): ReminderPolicy | undefined {
  const definition = activeDefinition(catalog, type);
  const every = definition?.['remindEveryMinutes'];
  const times = definition?.['remindTimes'];
  const minutes =
    typeof every === 'number' ? every : REMINDED_BY_DEFAULT.includes(type) ? DEFAULT_REMIND_EVERY_MINUTES : 0;
  const count = typeof times === 'number' ? Math.floor(times) : DEFAULT_REMIND_TIMES;
  if (!(minutes > 0) || !(count > 0)) return undefined;
  return { everyMs: minutes * 60_000, times: count };
}

/** When a notification alerts again, as stored with it. */
export interface AlertSchedule {
  /** Snoozed: it comes back at this time; reminders wait until then. */
  snoozedUntil?: number;
  /** Its next reminder. */
  remindAt?: number;
  remindersSent: number;
}

/** The first reminder of a notification that starts (or restarts) a lifecycle now; undefined = none. */
export function firstReminderAt(policy: ReminderPolicy | undefined, now: number): number | undefined {
  return policy && now + policy.everyMs;
}

export type AlertDecision =
  /** Alert now (toast and sound again), then keep this schedule. */
  | { kind: 'alert'; reason: 'snooze' | 'reminder'; next: AlertSchedule }
  /** Quiet hours hold the alert back: it is due again when they end. */
  | { kind: 'defer'; next: AlertSchedule }
  /** Nothing to alert (its type stopped reminding, or the reminders are used up): keep this schedule. */
  | { kind: 'stop'; next: AlertSchedule };

/**
 * What a notification whose alert is due does now. A snooze's end brings it back and restarts the
 * reminder interval (a snooze pauses reminders, it does not spend them); a reminder counts one of its
 * type's times. Quiet hours (`quietUntil`, the end of the quiet time that holds this priority back)
 * move the alert to their end without spending anything.
 */
export function decideAlert(
  schedule: AlertSchedule,
  policy: ReminderPolicy | undefined,
  now: number,
  quietUntil: number | undefined,
): AlertDecision {
  if (quietUntil !== undefined) {
    return {
      kind: 'defer',
      next:
        schedule.snoozedUntil !== undefined
          ? { ...schedule, snoozedUntil: quietUntil }
          : { ...schedule, remindAt: quietUntil },
    };
  }
  const snooze = schedule.snoozedUntil !== undefined;
  const sent = schedule.remindersSent + (snooze ? 0 : 1);
  const remindAt = policy && sent < policy.times ? now + policy.everyMs : undefined;
  const next: AlertSchedule = { remindersSent: sent, ...(remindAt !== undefined && { remindAt }) };
  if (!snooze && (!policy || schedule.remindersSent >= policy.times))
    return { kind: 'stop', next: { remindersSent: schedule.remindersSent } };
  return { kind: 'alert', reason: snooze ? 'snooze' : 'reminder', next };
}
