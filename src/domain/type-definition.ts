import type { Priority } from './priority.js';

/** A local type's policy from config.json `types`; presentation settings ride along untouched. */
export interface TypeDefinition {
  enabled: boolean;
  defaultPriority?: Priority;
  [presentationSetting: string]: unknown;
}

export type TypeCatalog = Readonly<Record<string, TypeDefinition>>;

/** The definition that applies to a type: only an enabled one counts as configured. */
export function activeDefinition(catalog: TypeCatalog, type: string): TypeDefinition | undefined {
  const definition = Object.hasOwn(catalog, type) ? catalog[type] : undefined;
  return definition?.enabled ? definition : undefined;
}

/** Spec "Priority": an explicit priority wins, then the configured type's default, then normal. */
export function effectivePriority(
  requested: Priority | undefined,
  type: string,
  catalog: TypeCatalog,
): Priority {
  return requested ?? activeDefinition(catalog, type)?.defaultPriority ?? 'normal';
}
