import { isTypeIdentifier } from '../domain/notification-type.js';
import { InvalidRequestError } from '../domain/errors.js';
import { normalizePriority } from '../domain/priority.js';
import { parseQuietHours, type QuietHours } from '../domain/quiet-hours.js';
import type { SoundsByPriority } from '../domain/sound-name.js';
import type { TypeCatalog, TypeDefinition } from '../domain/type-definition.js';
import { MalformedConfigError } from './malformed-config-error.js';
import { readSoundsByPriority } from './sound-settings.js';

export const DEFAULT_PORT = 47821;

/** The settings the broker acts on, after defaults and normalization. */
export interface Settings {
  port: number;
  authToken: string;
  maxRequestBodyBytes: number;
  rateLimitPerSecond: number;
  pauseNotifications: boolean;
  soundsEnabled: boolean;
  doNotDisturb: boolean;
  playCriticalSoundsDuringDoNotDisturb: boolean;
  maxVisibleToasts: number;
  retentionDays: number;
  types: TypeCatalog;
  soundsByPriority: SoundsByPriority;
  /** Local-time windows without toasts and sounds below a priority; undefined = none (issue 20). */
  quietHours?: QuietHours;
  /** A request whose own place has the person's focus waits focusGraceSeconds before it toasts or sounds (docs/focus.md). */
  quietWhileFocused: boolean;
  focusGraceSeconds: number;
}

export const DEFAULTS = {
  port: DEFAULT_PORT,
  maxRequestBodyBytes: 65536,
  rateLimitPerSecond: 30,
  pauseNotifications: false,
  soundsEnabled: true,
  doNotDisturb: false,
  playCriticalSoundsDuringDoNotDisturb: true,
  maxVisibleToasts: 5,
  retentionDays: 30,
  quietWhileFocused: true,
  focusGraceSeconds: 15,
} as const;

/**
 * A token with a space can never match (clients and the HTTP parser trim header values), and a short
 * one is masked wherever that short string shows up in the log. Generated tokens are 43 characters of
 * base64url, so they always pass.
 */
const TOKEN_RULE = /^[\x21-\x7e]{16,}$/;
export const TOKEN_RULE_MESSAGE =
  'authToken must be at least 16 characters of printable ASCII (letters, digits, punctuation) with no spaces or control characters; remove the field and restart Notify to have one generated';

export interface NormalizedConfig {
  settings: Settings;
  /** The file's object with every known field filled and normalized; unknown fields kept as found. */
  document: Record<string, unknown>;
  /** One sentence per value that was out of range and replaced. */
  warnings: string[];
  /** The file had no authToken and a new one was made (not yet saved). */
  tokenGenerated: boolean;
}

type Document = Record<string, unknown>;

/**
 * Applies conventions.md "Configuration file" to a parsed config.json: fills defaults, resets
 * out-of-range values, generates a token when absent. Wrong JSON types are refused, never guessed.
 */
export function normalizeConfig(raw: unknown, generateToken: () => string): NormalizedConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new MalformedConfigError('the top level must be a JSON object');
  }
  const document: Document = { ...(raw as Document) };
  const warnings: string[] = [];

  const positive = (field: keyof typeof DEFAULTS, rule: string, valid: (n: number) => boolean): number => {
    const value = readValue(document, field, 'number');
    const fallback = DEFAULTS[field] as number;
    if (value === undefined) return (document[field] = fallback);
    if (!Number.isInteger(value) || !valid(value)) {
      warnings.push(`${field} ${value} is out of range (${rule}); using ${fallback}`);
      return (document[field] = fallback);
    }
    return value;
  };
  const flag = (field: keyof typeof DEFAULTS): boolean => {
    const value = readValue(document, field, 'boolean');
    return value ?? (document[field] = DEFAULTS[field] as boolean);
  };

  const port = positive('port', '1-65535', (n) => n >= 1 && n <= 65535);
  const maxRequestBodyBytes = positive('maxRequestBodyBytes', 'must be above 0', (n) => n > 0);
  const rateLimitPerSecond = positive('rateLimitPerSecond', 'must be above 0', (n) => n > 0);
  const retentionDays = positive('retentionDays', 'must be above 0', (n) => n > 0);
  const maxVisibleToasts = readMaxVisibleToasts(document, warnings);
  const focusGraceSeconds = positive('focusGraceSeconds', '0-3600', (n) => n >= 0 && n <= 3600);

  let authToken = readValue(document, 'authToken', 'string');
  if (authToken && !TOKEN_RULE.test(authToken)) throw new MalformedConfigError(TOKEN_RULE_MESSAGE);
  const tokenGenerated = !authToken;
  if (!authToken) authToken = document['authToken'] = generateToken();

  return {
    settings: {
      port,
      authToken,
      maxRequestBodyBytes,
      rateLimitPerSecond,
      pauseNotifications: flag('pauseNotifications'),
      soundsEnabled: flag('soundsEnabled'),
      doNotDisturb: flag('doNotDisturb'),
      playCriticalSoundsDuringDoNotDisturb: flag('playCriticalSoundsDuringDoNotDisturb'),
      maxVisibleToasts,
      retentionDays,
      types: readTypes(document, warnings),
      soundsByPriority: readSoundsByPriority(document, warnings),
      ...readQuietHours(document, warnings),
      quietWhileFocused: flag('quietWhileFocused'),
      focusGraceSeconds,
    },
    document,
    warnings,
    tokenGenerated,
  };
}

function readValue(document: Document, field: string, type: 'number'): number | undefined;
function readValue(document: Document, field: string, type: 'boolean'): boolean | undefined;
function readValue(document: Document, field: string, type: 'string'): string | undefined;
function readValue(document: Document, field: string, type: string): unknown {
  const value = document[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type) throw new MalformedConfigError(`"${field}" must be a ${type}`);
  return value;
}

function readMaxVisibleToasts(document: Document, warnings: string[]): number {
  const value = readValue(document, 'maxVisibleToasts', 'number');
  if (value === undefined) return (document['maxVisibleToasts'] = DEFAULTS.maxVisibleToasts);
  const clamped = Math.min(20, Math.max(1, Math.round(value)));
  if (clamped !== value) {
    warnings.push(`maxVisibleToasts ${value} is out of range (1-20); using ${clamped}`);
    document['maxVisibleToasts'] = clamped;
  }
  return clamped;
}

/** `types`: id → { defaultPriority?, enabled?, presentation... }; bad entries are skipped, never fatal. */
function readTypes(document: Document, warnings: string[]): TypeCatalog {
  const value = document['types'];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new MalformedConfigError('"types" must be an object');
  const catalog: Record<string, TypeDefinition> = {};
  for (const [id, entry] of Object.entries(value as Document)) {
    if (!isTypeIdentifier(id)) {
      warnings.push(`types: "${id}" is not a valid type identifier; entry ignored`);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      warnings.push(`types.${id} must be an object; entry ignored`);
      continue;
    }
    const definition: TypeDefinition = {
      ...(entry as Document),
      enabled: (entry as Document)['enabled'] !== false,
    };
    const requested = (entry as Document)['defaultPriority'];
    delete definition.defaultPriority;
    if (requested !== undefined) {
      const priority = typeof requested === 'string' ? normalizePriority(requested) : undefined;
      if (priority) definition.defaultPriority = priority;
      else warnings.push(`types.${id}.defaultPriority must be low, normal, high, or critical; ignored`);
    }
    catalog[id] = definition;
  }
  return catalog;
}

/** `quietHours`: a value that does not parse is left out with a warning (the editor refuses it). */
function readQuietHours(document: Document, warnings: string[]): { quietHours?: QuietHours } {
  try {
    const quietHours = parseQuietHours(document['quietHours']);
    return quietHours ? { quietHours } : {};
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    warnings.push(`${error.message}; ignored`);
    return {};
  }
}
