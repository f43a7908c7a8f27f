/**
 * Small builders for the JSON Schemas routes declare (OpenAPI 3.1 uses JSON Schema 2020-12). The
 * schemas document the API; handlers validate on their own so every spec message stays as it is.
 */
export type JsonSchema = Record<string, unknown>;

export interface RouteSchema {
  summary: string;
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  /** By status code. */
  response: Record<number, JsonSchema | null>;
}

export const ERROR: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' } },
};

export const ID_PARAMS: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
};

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
export const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 && { required }),
});
/** A request body whose handler refuses any field it does not name. */
export const closedObject = (
  properties: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema => ({
  ...object(properties, required),
  additionalProperties: false,
});
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
