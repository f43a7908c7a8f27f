import type { Priority } from './priority.js';

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

/** At most one sound per two seconds: a burst of notifications plays one sound, not one each. */
export const SOUND_INTERVAL_MS = 2000;

/**
 * Grants a sound when none was granted within the interval. Time is passed in, so tests drive it
 * without sleeping.
 */
export class SoundBurstLimiter {
  #lastGranted = Number.NEGATIVE_INFINITY;

  constructor(private readonly intervalMs: number = SOUND_INTERVAL_MS) {}

  tryAcquire(now: number): boolean {
    if (now - this.#lastGranted < this.intervalMs) return false;
    this.#lastGranted = now;
    return true;
  }
}
