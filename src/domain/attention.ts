import { activeDefinition, type TypeCatalog } from './type-definition.js';

/** The types that need a person unless their definition says `needsPerson` (issue 20). */
export const NEEDS_PERSON_BY_DEFAULT: readonly string[] = [
  'input_required',
  'permission_required',
  'blocked',
  'error',
];

/**
 * Whether a notification of this type waits for a person (and so alerts again when it turns into one):
 * an enabled definition's `needsPerson`, else the built-in default.
 */
export function needsPerson(type: string, catalog: TypeCatalog): boolean {
  const setting = activeDefinition(catalog, type)?.['needsPerson'];
  return typeof setting === 'boolean' ? setting : NEEDS_PERSON_BY_DEFAULT.includes(type);
}

/** How long news (a type that needs no person) stays active by default before it resolves itself. */
export const DEFAULT_NEWS_MINUTES = 60;

/**
 * After how many milliseconds without a change an active notification of this type resolves itself:
 * an enabled definition's `resolveAfterMinutes` (0 = never), else DEFAULT_NEWS_MINUTES for news and
 * never for a type that needs a person. Undefined = never.
 */
export function resolvesAfterMs(type: string, catalog: TypeCatalog): number | undefined {
  const setting = activeDefinition(catalog, type)?.['resolveAfterMinutes'];
  const minutes =
    typeof setting === 'number' && Number.isFinite(setting) && setting >= 0
      ? setting
      : needsPerson(type, catalog)
        ? 0
        : DEFAULT_NEWS_MINUTES;
  return minutes > 0 ? minutes * 60_000 : undefined;
}

/** The shortest such time any type has: older notifications are the only candidates. */
export function shortestResolveMs(catalog: TypeCatalog): number {
  const configured = Object.keys(catalog)
    .map((type) => resolvesAfterMs(type, catalog))
    .filter((ms): ms is number => ms !== undefined);
  return Math.min(DEFAULT_NEWS_MINUTES * 60_000, ...configured);
}
