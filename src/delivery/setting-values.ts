import type { SettingValues } from './provider.js';

/**
 * Typed reads of a provider's settings. The outbox validates settings against the declarations before
 * a delivery, so these only fold empty strings into "not set" and never throw.
 */

export function optionalString(settings: SettingValues, name: string): string | undefined {
  const value = settings[name];
  if (value === undefined) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

export function requiredString(settings: SettingValues, name: string): string {
  return optionalString(settings, name) ?? '';
}

export function optionalInteger(settings: SettingValues, name: string): number | undefined {
  const value = settings[name];
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

export function flag(settings: SettingValues, name: string, fallback: boolean): boolean {
  const value = settings[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

/** `Authorization: Basic` for a user name and password (RFC 7617, UTF-8). */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
