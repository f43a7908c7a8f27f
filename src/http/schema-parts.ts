/** JSON Schema pieces the route schemas share (JSON Schema 2020-12, as OpenAPI 3.1 uses). */

export const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' } },
  additionalProperties: false,
} as const;

export const PRIORITY_SCHEMA = { enum: ['low', 'normal', 'high', 'critical'] } as const;

/** A tone, an imported sound or `none`. */
export const SOUND_REFERENCE_SCHEMA = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } as const;

export const TYPE_ID_SCHEMA = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' } as const;
