import { InvalidRequestError } from './errors.js';
import { rejectUnknownFields, requireObjectBody } from './fields.js';
import { BUILTIN_TYPES, isTypeIdentifier } from './notification-type.js';
import { normalizePriority } from './priority.js';
import { MAX_REMIND_EVERY_MINUTES, MAX_REMIND_TIMES } from './reminders.js';
import { isSoundName } from './sound-name.js';
import type { TypeDefinition } from './type-definition.js';

/** What PUT /v1/types/{id} accepts; the presentation fields are shared with the toasts by name. */
export const TYPE_FIELDS = [
  'enabled',
  'defaultPriority',
  'lifetimeSeconds',
  'icon',
  'sound',
  'needsPerson',
  'resolveAfterMinutes',
  'remindEveryMinutes',
  'remindTimes',
] as const;

/** 30 days: news older than that has long been read, or forgotten. */
export const MAX_RESOLVE_AFTER_MINUTES = 43_200;

/** A day: longer toasts are "until acted on", which is 0. */
export const MAX_LIFETIME_SECONDS = 86_400;

/** freedesktop icon names: letters, digits, `-`, `_`, `.` and `+` (e.g. `dialog-warning`). */
const ICON_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$/;

export function requireTypeId(id: string): string {
  if (!isTypeIdentifier(id)) {
    throw new InvalidRequestError(
      `type id "${id}" is not valid; use 1-64 lower-case letters, digits and underscores, starting with a letter`,
    );
  }
  return id;
}

export function isBuiltinType(id: string): boolean {
  return (BUILTIN_TYPES as readonly string[]).includes(id);
}

/** Validates a type definition body; every field is optional and `enabled` defaults to true. */
export function parseTypeDefinition(body: unknown): TypeDefinition {
  const input = requireObjectBody(body);
  rejectUnknownFields(input, TYPE_FIELDS);
  const definition: TypeDefinition = { enabled: true };
  const { enabled, defaultPriority, lifetimeSeconds, icon, sound, needsPerson, resolveAfterMinutes } = input;
  if (enabled !== undefined && enabled !== null) {
    if (typeof enabled !== 'boolean') throw new InvalidRequestError('enabled must be true or false');
    definition.enabled = enabled;
  }
  if (defaultPriority !== undefined && defaultPriority !== null) {
    const priority = typeof defaultPriority === 'string' ? normalizePriority(defaultPriority) : undefined;
    if (!priority) throw new InvalidRequestError('defaultPriority must be low, normal, high, or critical');
    definition.defaultPriority = priority;
  }
  if (lifetimeSeconds !== undefined && lifetimeSeconds !== null) {
    if (
      typeof lifetimeSeconds !== 'number' ||
      !Number.isFinite(lifetimeSeconds) ||
      lifetimeSeconds < 0 ||
      lifetimeSeconds > MAX_LIFETIME_SECONDS
    ) {
      throw new InvalidRequestError(
        `lifetimeSeconds must be a number from 0 to ${MAX_LIFETIME_SECONDS} (0: the toast stays until acted on)`,
      );
    }
    definition['lifetimeSeconds'] = lifetimeSeconds;
  }
  if (icon !== undefined && icon !== null) {
    if (typeof icon !== 'string' || !ICON_NAME.test(icon)) {
      throw new InvalidRequestError(
        'icon must be a freedesktop icon name such as dialog-warning (letters, digits, "-", "_", "." or "+"; at most 128 characters)',
      );
    }
    definition['icon'] = icon;
  }
  if (sound !== undefined && sound !== null) {
    if (!isSoundName(sound)) {
      throw new InvalidRequestError(
        'sound must be chime, ping, alert, knock, the name of an imported sound, or none',
      );
    }
    definition['sound'] = sound;
  }
  if (needsPerson !== undefined && needsPerson !== null) {
    if (typeof needsPerson !== 'boolean') throw new InvalidRequestError('needsPerson must be true or false');
    definition['needsPerson'] = needsPerson;
  }
  if (resolveAfterMinutes !== undefined && resolveAfterMinutes !== null) {
    if (
      typeof resolveAfterMinutes !== 'number' ||
      !Number.isFinite(resolveAfterMinutes) ||
      resolveAfterMinutes < 0 ||
      resolveAfterMinutes > MAX_RESOLVE_AFTER_MINUTES
    ) {
      throw new InvalidRequestError(
        `resolveAfterMinutes must be a number from 0 to ${MAX_RESOLVE_AFTER_MINUTES} (0: never resolved by itself)`,
      );
    }
    definition['resolveAfterMinutes'] = resolveAfterMinutes;
  }
  readReminders(input, definition);
  return definition;
}

/** `remindEveryMinutes` (0: never) and `remindTimes` (0: never): how an unresolved notification alerts again. */
function readReminders(input: Record<string, unknown>, definition: TypeDefinition): void {
  const { remindEveryMinutes, remindTimes } = input;
  if (remindEveryMinutes !== undefined && remindEveryMinutes !== null) {
    if (
      typeof remindEveryMinutes !== 'number' ||
      !Number.isFinite(remindEveryMinutes) ||
      remindEveryMinutes < 0 ||
      remindEveryMinutes > MAX_REMIND_EVERY_MINUTES
    ) {
      throw new InvalidRequestError(
        `remindEveryMinutes must be a number from 0 to ${MAX_REMIND_EVERY_MINUTES} (0: no reminders)`,
      );
    }
    definition['remindEveryMinutes'] = remindEveryMinutes;
  }
  if (remindTimes !== undefined && remindTimes !== null) {
    if (
      !Number.isInteger(remindTimes) ||
      (remindTimes as number) < 0 ||
      (remindTimes as number) > MAX_REMIND_TIMES
    ) {
      throw new InvalidRequestError(
        `remindTimes must be a whole number from 0 to ${MAX_REMIND_TIMES} (how many reminders at most; 0: none)`,
      );
    }
    definition['remindTimes'] = remindTimes;
  }
}
