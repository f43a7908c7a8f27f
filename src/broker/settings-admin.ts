import {
  ConfigUnavailableError,
  RefusedConfigChangeError,
  type ConfigEditor,
} from '../config/config-editor.js';
import type { Settings } from '../config/settings.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { BUILTIN_TYPES } from '../domain/notification-type.js';
import {
  applySettingsPatch,
  presentationSettingsOf,
  type PresentationSettings,
} from '../domain/presentation-settings.js';
import type { Priority } from '../domain/priority.js';
import { NO_SOUND } from '../domain/sound-name.js';
import { isBuiltinType, parseTypeDefinition, requireTypeId } from '../domain/type-definition-body.js';
import type { TypeDefinition } from '../domain/type-definition.js';
import type { SoundLibrary } from '../presentation/sound-library.js';

/** One type as the API shows it: its id, whether Notify defines it, and its definition in config. */
export type TypeEntry = { id: string; builtin: boolean } & TypeDefinition;

export interface SettingsAdminDeps {
  editor: ConfigEditor;
  settings: () => Settings;
  sounds: SoundLibrary;
}

/** The presentation settings and type definitions, read from the live settings, changed in config.json. */
export class SettingsAdmin {
  constructor(private readonly deps: SettingsAdminDeps) {}

  get(): PresentationSettings {
    return presentationSettingsOf(this.deps.settings());
  }

  patch(body: unknown): PresentationSettings {
    const before = this.deps.settings().soundsByPriority;
    const after = this.#edit(
      (document) => applySettingsPatch(document, body),
      (next) => {
        for (const [priority, sound] of Object.entries(next.soundsByPriority)) {
          if (sound !== before[priority as Priority])
            this.#requireSound(sound, `soundsByPriority.${priority}`);
        }
      },
    );
    return presentationSettingsOf(after);
  }

  listTypes(): TypeEntry[] {
    const types = this.deps.settings().types;
    const custom = Object.keys(types)
      .filter((id) => !isBuiltinType(id))
      .sort();
    return [...BUILTIN_TYPES, ...custom].map((id) => entryOf(id, types[id]));
  }

  putType(id: string, body: unknown): { entry: TypeEntry; created: boolean } {
    requireTypeId(id);
    const definition = parseTypeDefinition(body);
    if (typeof definition['sound'] === 'string') this.#requireSound(definition['sound'], `types.${id}.sound`);
    const created = !Object.hasOwn(this.deps.settings().types, id);
    const after = this.#edit((document) => {
      const types = isObject(document['types']) ? document['types'] : {};
      document['types'] = { ...types, [id]: definition };
    });
    return { entry: entryOf(id, after.types[id]), created };
  }

  deleteType(id: string): TypeEntry {
    requireTypeId(id);
    const types = this.deps.settings().types;
    const existing = Object.hasOwn(types, id) ? types[id] : undefined;
    if (!existing) {
      throw new NotFoundError(
        isBuiltinType(id)
          ? `type "${id}" is built in and has no definition in config.json to remove`
          : `type "${id}" not found`,
      );
    }
    this.#edit((document) => {
      const types = { ...(document['types'] as Record<string, unknown>) };
      delete types[id];
      document['types'] = types;
    });
    return entryOf(id, existing);
  }

  /** Applies a change through the editor; `check` sees the result before anything is written. */
  #edit(change: (document: Record<string, unknown>) => void, check?: (next: Settings) => void): Settings {
    try {
      return this.deps.editor.edit(change, check).settings;
    } catch (error) {
      if (error instanceof RefusedConfigChangeError) throw new InvalidRequestError(error.message);
      if (error instanceof ConfigUnavailableError) throw new ConflictError(error.message);
      throw error;
    }
  }

  #requireSound(name: string, field: string): void {
    if (name === NO_SOUND || this.deps.sounds.find(name)) return;
    throw new InvalidRequestError(
      `unknown sound "${name}" for ${field}; use chime, ping, alert, knock, none or an imported sound (GET /v1/sounds lists them)`,
    );
  }
}

function entryOf(id: string, definition: TypeDefinition | undefined): TypeEntry {
  return { id, builtin: isBuiltinType(id), ...(definition ?? { enabled: true }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
