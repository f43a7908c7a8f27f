import type { Priority } from './priority.js';
import { isSoundName, NO_SOUND, type SoundsByPriority } from './sound-name.js';
import { activeDefinition, type TypeCatalog } from './type-definition.js';

/**
 * The sound a notification asks for: its type's `sound` when the type is configured and enabled, else
 * the default of its priority. undefined means silence (`none`).
 */
export function chooseSound(
  notification: { type: string; priority: Priority },
  types: TypeCatalog,
  byPriority: SoundsByPriority,
): string | undefined {
  const own = activeDefinition(types, notification.type)?.['sound'];
  const name = isSoundName(own) ? own : byPriority[notification.priority];
  return name === NO_SOUND ? undefined : name;
}
