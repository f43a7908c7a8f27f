export const TYPE_IDENTIFIER = /^[a-z][a-z0-9_]{0,63}$/;

export const BUILTIN_TYPES = [
  'info',
  'success',
  'warning',
  'error',
  'input_required',
  'permission_required',
  'completed',
  'blocked',
] as const;

export const DEFAULT_TYPE = 'info';

const ALIASES: Record<string, string> = {
  inputrequired: 'input_required',
  permissionrequired: 'permission_required',
};

export function isTypeIdentifier(value: string): boolean {
  return TYPE_IDENTIFIER.test(value);
}

/**
 * The spec's type normalization: trim, `-` → `_`, lower-case, two legacy aliases; undefined when the
 * result breaks the identifier grammar.
 */
export function normalizeType(input: string): string | undefined {
  const folded = input.trim().replace(/-/g, '_').toLowerCase();
  const resolved = ALIASES[folded] ?? folded;
  return isTypeIdentifier(resolved) ? resolved : undefined;
}
