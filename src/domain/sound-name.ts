import type { Priority } from './priority.js';

/** The tones Notify ships (spec "Local presentation after storage"). */
export const BUILTIN_TONES = ['chime', 'ping', 'alert', 'knock'] as const;
export type BuiltinTone = (typeof BUILTIN_TONES)[number];

/** The word that means "no sound" wherever a sound is named (a type, a priority default). */
export const NO_SOUND = 'none';

/**
 * Names of imported sounds: lower-case letters, digits, `-` and `_`, 1-64 characters, starting with a
 * letter or digit. The name is also the file name in the data folder, so nothing else may pass.
 */
export const SOUND_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function isSoundName(value: unknown): value is string {
  return typeof value === 'string' && SOUND_NAME.test(value);
}

export function isBuiltinTone(name: string): name is BuiltinTone {
  return (BUILTIN_TONES as readonly string[]).includes(name);
}

export type SoundsByPriority = Readonly<Record<Priority, string>>;

/** What plays when a notification's type names no sound of its own. */
export const DEFAULT_SOUNDS_BY_PRIORITY: SoundsByPriority = {
  low: NO_SOUND,
  normal: 'chime',
  high: 'ping',
  critical: 'alert',
};
