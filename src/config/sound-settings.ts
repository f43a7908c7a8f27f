import { PRIORITIES, type Priority } from '../domain/priority.js';
import { DEFAULT_SOUNDS_BY_PRIORITY, isSoundName, type SoundsByPriority } from '../domain/sound-name.js';
import { MalformedConfigError } from './malformed-config-error.js';

type Document = Record<string, unknown>;

/**
 * `soundsByPriority`: the sound of each priority when a notification's type names none. A missing key
 * takes its default; an unknown key or a value that is not a sound name is skipped with a warning.
 */
export function readSoundsByPriority(document: Document, warnings: string[]): SoundsByPriority {
  const value = document['soundsByPriority'];
  if (value === undefined || value === null) {
    document['soundsByPriority'] = { ...DEFAULT_SOUNDS_BY_PRIORITY };
    return DEFAULT_SOUNDS_BY_PRIORITY;
  }
  if (typeof value !== 'object' || Array.isArray(value))
    throw new MalformedConfigError('"soundsByPriority" must be an object');
  const given = value as Document;
  const result: Record<Priority, string> = { ...DEFAULT_SOUNDS_BY_PRIORITY };
  for (const [key, sound] of Object.entries(given)) {
    if (!(PRIORITIES as readonly string[]).includes(key)) {
      warnings.push(`soundsByPriority: "${key}" is not a priority (low, normal, high, critical); ignored`);
    } else if (!isSoundName(sound)) {
      warnings.push(
        `soundsByPriority.${key} must be a sound name (chime, ping, alert, knock, an imported sound, or none); using ${result[key as Priority]}`,
      );
    } else {
      result[key as Priority] = sound;
    }
  }
  return result;
}
