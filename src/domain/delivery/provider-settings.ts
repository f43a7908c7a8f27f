import type { SettingDeclaration, SettingValues } from '../../delivery/provider.js';
import { InvalidRequestError } from '../errors.js';

export interface ValidatedSettings {
  /** Settings that are not secret, complete (previous values kept, defaults filled). */
  settings: SettingValues;
  /** Secret values to seal and store. */
  secrets: Map<string, string>;
  /** Secret settings to forget (sent as null). */
  clearSecrets: string[];
}

export interface PreviousSettings {
  settings: SettingValues;
  secretNames: readonly string[];
}

/**
 * Checks a `settings` object against a provider kind's declarations: unknown names, types, enum choices
 * and required values, with a message naming the setting. On update (`previous` given) only the
 * settings sent change; a secret sent as null is cleared, and secrets are never echoed back.
 */
export function validateSettings(
  declarations: readonly SettingDeclaration[],
  input: unknown,
  previous?: PreviousSettings,
): ValidatedSettings {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new InvalidRequestError('settings must be an object');
  }
  const given = (input ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!declarations.some((declaration) => declaration.name === name)) {
      const known = declarations.map((declaration) => declaration.name).join(', ') || 'none';
      throw new InvalidRequestError(
        `settings.${name} is not a setting of this provider kind (known: ${known})`,
      );
    }
  }
  const settings: Record<string, string | number | boolean> = {};
  const secrets = new Map<string, string>();
  const clearSecrets: string[] = [];
  for (const declaration of declarations) {
    const { name } = declaration;
    const value = given[name];
    if (value === null && declaration.secret) {
      clearSecrets.push(name);
    } else if (value !== undefined && value !== null) {
      const checked = checkValue(declaration, value);
      if (declaration.secret) secrets.set(name, String(checked));
      else settings[name] = checked;
    } else if (!declaration.secret && previous && name in previous.settings) {
      settings[name] = previous.settings[name]!;
    } else if (!declaration.secret && declaration.default !== undefined) {
      settings[name] = declaration.default;
    }
    if (declaration.required) {
      const present = declaration.secret
        ? secrets.has(name) ||
          (!clearSecrets.includes(name) && (previous?.secretNames.includes(name) ?? false))
        : name in settings;
      if (!present) throw new InvalidRequestError(`settings.${name} is required: ${declaration.help}`);
    }
  }
  return { settings, secrets, clearSecrets };
}

function checkValue(declaration: SettingDeclaration, value: unknown): string | number | boolean {
  const where = `settings.${declaration.name}`;
  switch (declaration.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw new InvalidRequestError(`${where} must be true or false`);
      return value;
    case 'integer':
      if (!Number.isSafeInteger(value)) throw new InvalidRequestError(`${where} must be an integer`);
      return value as number;
    case 'enum': {
      const choices = declaration.choices ?? [];
      if (typeof value !== 'string' || !choices.includes(value)) {
        throw new InvalidRequestError(`${where} must be one of ${choices.join(', ')}`);
      }
      return value;
    }
    case 'url':
      return checkUrl(declaration, value);
    case 'string': {
      if (typeof value !== 'string' || value.length === 0) {
        throw new InvalidRequestError(`${where} must be a non-empty string`);
      }
      const problem = declaration.problem?.(value);
      if (problem !== undefined) throw new InvalidRequestError(`${where}: ${problem}`);
      return value;
    }
  }
}

/**
 * Only http and https: a provider that posts to `file:`, `data:` or `gopher:` fails at every delivery,
 * so it is refused here instead. A URL's `user:password@` would be stored and shown in clear (and is
 * dropped by fetch), so it is refused with the secret setting to use instead.
 */
function checkUrl(declaration: SettingDeclaration, value: unknown): string {
  const where = `settings.${declaration.name}`;
  const url = typeof value === 'string' ? parseUrl(value) : undefined;
  if (url === undefined) {
    throw new InvalidRequestError(`${where} must be an absolute URL, e.g. https://example.com/path`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidRequestError(
      `${where} must be an http or https URL, e.g. https://example.com/path (not ${url.protocol})`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    const instead = declaration.credentialsIn ? `; use ${declaration.credentialsIn} instead` : '';
    throw new InvalidRequestError(
      `${where} must not hold a user name or password (user:password@): it would be stored and shown in clear${instead}`,
    );
  }
  return value as string;
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
