import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SettingsAdmin } from '../broker/settings-admin.js';
import { MAX_LIFETIME_SECONDS, MAX_RESOLVE_AFTER_MINUTES } from '../domain/type-definition-body.js';
import { MAX_REMIND_EVERY_MINUTES, MAX_REMIND_TIMES } from '../domain/reminders.js';
import { ERROR_SCHEMA, PRIORITY_SCHEMA, SOUND_REFERENCE_SCHEMA, TYPE_ID_SCHEMA } from './schema-parts.js';

const DEFINITION_FIELDS = {
  enabled: { type: 'boolean' },
  defaultPriority: PRIORITY_SCHEMA,
  lifetimeSeconds: { type: 'number', minimum: 0, maximum: MAX_LIFETIME_SECONDS },
  icon: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$' },
  sound: SOUND_REFERENCE_SCHEMA,
  needsPerson: { type: 'boolean' },
  resolveAfterMinutes: { type: 'number', minimum: 0, maximum: MAX_RESOLVE_AFTER_MINUTES },
  remindEveryMinutes: { type: 'number', minimum: 0, maximum: MAX_REMIND_EVERY_MINUTES },
  remindTimes: { type: 'integer', minimum: 0, maximum: MAX_REMIND_TIMES },
} as const;

/** A type as listed: fields of config.json written by hand (say `color`) are shown as they are. */
const TYPE_ENTRY = {
  type: 'object',
  required: ['id', 'builtin', 'enabled'],
  properties: { id: TYPE_ID_SCHEMA, builtin: { type: 'boolean' }, ...DEFINITION_FIELDS },
  additionalProperties: true,
} as const;

const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: TYPE_ID_SCHEMA } } as const;

/** Request and response shapes of /v1/types, for the OpenAPI document. */
export const TYPE_ROUTE_SCHEMAS = {
  list: { response: { 200: { type: 'array', items: TYPE_ENTRY } } },
  put: {
    params: ID_PARAMS,
    body: { type: 'object', properties: DEFINITION_FIELDS, additionalProperties: false },
    response: { 200: TYPE_ENTRY, 201: TYPE_ENTRY, 400: ERROR_SCHEMA, 409: ERROR_SCHEMA },
  },
  delete: { params: ID_PARAMS, response: { 200: TYPE_ENTRY, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA } },
} as const;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

export function typeHandlers(admin: SettingsAdmin) {
  return {
    list: async () => admin.listTypes(),
    put: async (request: IdRequest, reply: FastifyReply) => {
      const { entry, created } = admin.putType(request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(entry);
    },
    remove: async (request: IdRequest) => admin.deleteType(request.params.id),
  };
}
