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
