import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SoundAdmin } from '../broker/sound-admin.js';
import { MAX_SOUND_BYTES } from '../domain/sound-file.js';
import { ERROR_SCHEMA } from './schema-parts.js';

const SOUND_ENTRY = {
  type: 'object',
  required: ['name', 'kind', 'format', 'bytes'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
    kind: { enum: ['builtin', 'imported'] },
    format: { enum: ['wav', 'mp3'] },
    bytes: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

const NAME_PARAMS = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
} as const;

/** The raw file of an import: the body is the sound itself, not JSON. */
export const SOUND_IMPORT_BODY_LIMIT = MAX_SOUND_BYTES;

/** Request and response shapes of /v1/sounds, for the OpenAPI document. */
export const SOUND_ROUTE_SCHEMAS = {
  list: { response: { 200: { type: 'array', items: SOUND_ENTRY } } },
  import: {
    params: NAME_PARAMS,
    body: {
      contentMediaType: 'application/octet-stream',
      description: `the .wav or .mp3 file, at most ${MAX_SOUND_BYTES} bytes; any Content-Type`,
    },
    response: { 200: SOUND_ENTRY, 201: SOUND_ENTRY, 400: ERROR_SCHEMA },
  },
  preview: {
    params: NAME_PARAMS,
    response: {
      200: {
        type: 'object',
        required: ['name', 'player'],
        properties: { name: { type: 'string' }, player: { type: 'string' } },
        additionalProperties: false,
      },
      404: ERROR_SCHEMA,
      503: ERROR_SCHEMA,
    },
  },
  delete: {
    params: NAME_PARAMS,
    response: { 200: SOUND_ENTRY, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA },
  },
} as const;

type NameRequest = FastifyRequest<{ Params: { name: string } }>;

export function soundHandlers(admin: SoundAdmin) {
  return {
    list: async () => admin.list(),
    import: async (request: NameRequest, reply: FastifyReply) => {
      const { entry, replaced } = admin.import(request.params.name, request.body);
      return reply.code(replaced ? 200 : 201).send(entry);
    },
    preview: async (request: NameRequest) => admin.preview(request.params.name),
    remove: async (request: NameRequest) => admin.remove(request.params.name),
  };
}
