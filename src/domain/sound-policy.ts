import { needsPerson } from './attention.js';
import type { NotificationRecord } from './notification.js';
import { priorityRank, type Priority } from './priority.js';
import type { TypeCatalog } from './type-definition.js';

/** The settings the spec's sound rule reads. */
export interface SoundSwitches {
  soundsEnabled: boolean;
  pauseNotifications: boolean;
  doNotDisturb: boolean;
  playCriticalSoundsDuringDoNotDisturb: boolean;
}

/**
 * Spec "Local presentation after storage": a sound plays only when soundsEnabled, not
 * pauseNotifications, and (not doNotDisturb, or the priority is critical and
 * playCriticalSoundsDuringDoNotDisturb).
 */
export function soundAllowed(switches: SoundSwitches, priority: Priority): boolean {
  if (!switches.soundsEnabled || switches.pauseNotifications) return false;
  if (!switches.doNotDisturb) return true;
  return priority === 'critical' && switches.playCriticalSoundsDuringDoNotDisturb;
}

/**
 * Whether an in-place update sounds again: only when it asks for more of a person than before, a
 * higher priority or a new type that needs a person. A progress line refreshed every few seconds
 * stays quiet.
 */
export function updateSounds(
  previous: Pick<NotificationRecord, 'priority' | 'type'>,
  next: Pick<NotificationRecord, 'priority' | 'type'>,
  catalog: TypeCatalog,
): boolean {
  if (priorityRank(next.priority) > priorityRank(previous.priority)) return true;
  return next.type !== previous.type && needsPerson(next.type, catalog);
}

/** At most one sound per two seconds: a burst of notifications plays one sound, not one each. */
export const SOUND_INTERVAL_MS = 2000;

/**
 * Grants a sound when none was granted within the interval, or when this one's priority is higher than
 * that of the one granted last: a burst never swallows a critical sound after a chime. Time is passed
 * in, so tests drive it without sleeping.
 */
export class SoundBurstLimiter {
  #lastGranted = Number.NEGATIVE_INFINITY;
  #lastRank = -1;

  constructor(private readonly intervalMs: number = SOUND_INTERVAL_MS) {}

  tryAcquire(now: number, priority: Priority): boolean {
    const rank = priorityRank(priority);
    if (now - this.#lastGranted < this.intervalMs && rank <= this.#lastRank) return false;
    this.#lastGranted = now;
    this.#lastRank = rank;
    return true;
  }
}
