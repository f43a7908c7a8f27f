import type { Priority } from './priority.js';
import type { QuietHours } from './quiet-hours.js';
import { InvalidRequestError } from './errors.js';
import { isJsonObject, requireObjectBody, type JsonObject } from './fields.js';
import type { SoundsByPriority } from './sound-name.js';

/** The settings GET/PATCH /v1/settings show and change; never the token or the port. */
export const PRESENTATION_FIELDS = [
  'pauseNotifications',
  'soundsEnabled',
  'doNotDisturb',
  'playCriticalSoundsDuringDoNotDisturb',
  'maxVisibleToasts',
  'soundsByPriority',
  'quietHours',
  'quietWhileFocused',
  'focusGraceSeconds',
] as const;

export interface PresentationSettings {
  pauseNotifications: boolean;
  soundsEnabled: boolean;
  doNotDisturb: boolean;
  playCriticalSoundsDuringDoNotDisturb: boolean;
  maxVisibleToasts: number;
  soundsByPriority: SoundsByPriority;
  /** null: no quiet hours. */
  quietHours: QuietHours | null;
  /** A request whose own place has the person's focus waits focusGraceSeconds before toast and sound. */
  quietWhileFocused: boolean;
  focusGraceSeconds: number;
}

export function presentationSettingsOf(
  settings: Omit<PresentationSettings, 'quietHours'> & { quietHours?: QuietHours },
): PresentationSettings {
  return {
    pauseNotifications: settings.pauseNotifications,
    soundsEnabled: settings.soundsEnabled,
    doNotDisturb: settings.doNotDisturb,
    playCriticalSoundsDuringDoNotDisturb: settings.playCriticalSoundsDuringDoNotDisturb,
    maxVisibleToasts: settings.maxVisibleToasts,
    soundsByPriority: { ...settings.soundsByPriority },
    quietHours: settings.quietHours ?? null,
    quietWhileFocused: settings.quietWhileFocused,
    focusGraceSeconds: settings.focusGraceSeconds,
  };
}

/** Fields the API never touches: the token is a secret, the port needs a restart. */
const CONFIG_ONLY = ['authToken', 'port'];

/**
 * Checks a PATCH /v1/settings body for its field names (values are checked by config loading) and
 * applies it to a config.json document as a JSON merge patch (RFC 7396): `null` restores a default,
 * and `soundsByPriority` merges per priority.
 */
export function applySettingsPatch(document: JsonObject, body: unknown): void {
  const patch = requireObjectBody(body);
  for (const field of Object.keys(patch)) {
    if (CONFIG_ONLY.includes(field)) {
      throw new InvalidRequestError(
        `"${field}" cannot be read or changed through the API; edit config.json to change it`,
      );
    }
    if (!(PRESENTATION_FIELDS as readonly string[]).includes(field)) {
      throw new InvalidRequestError(
        `unknown field "${field}"; allowed fields are ${PRESENTATION_FIELDS.join(', ')}`,
      );
    }
  }
  for (const [field, value] of Object.entries(patch)) {
    const current = document[field];
    if (value === null) delete document[field];
    else if (field === 'soundsByPriority' && isJsonObject(value) && isJsonObject(current))
      document[field] = mergeSounds(current, value);
    else document[field] = value;
  }
}

function mergeSounds(current: JsonObject, patch: JsonObject): JsonObject {
  const merged: JsonObject = { ...current };
  for (const [priority, sound] of Object.entries(patch)) {
    if (sound === null) delete merged[priority as Priority];
    else merged[priority] = sound;
  }
  return merged;
}
