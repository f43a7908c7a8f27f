import type { FastifyRequest } from 'fastify';
import type { ProviderService } from '../broker/provider-service.js';
import {
  arrayOf,
  closedObject,
  ERROR,
  ID_PARAMS,
  nullable,
  object,
  str,
  type JsonSchema,
  type RouteSchema,
} from './schema-kit.js';
import { switchableResourceHandlers } from './switchable-resource-handlers.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const SETTING_VALUE: JsonSchema = { type: ['string', 'integer', 'boolean'] };
const SETTING_INPUT: JsonSchema = { type: ['string', 'integer', 'boolean', 'null'] };

const PROVIDER_KIND: JsonSchema = object(
  {
    id: str(),
    title: str(),
    description: str(),
    lifecycle: object({ update: { type: 'boolean' }, clear: { type: 'boolean' } }, ['update', 'clear']),
    settings: arrayOf(
      object(
        {
          name: str(),
          type: { enum: ['string', 'url', 'integer', 'boolean', 'enum'] },
          required: { type: 'boolean' },
          secret: { type: 'boolean' },
          help: str(),
          choices: arrayOf(str()),
          default: SETTING_VALUE,
        },
        ['name', 'type', 'required', 'secret', 'help'],
      ),
    ),
  },
  ['id', 'title', 'description', 'lifecycle', 'settings'],
);

const PROVIDER: JsonSchema = object(
  {
    id: str(),
    kind: str(),
    name: str(),
    enabled: { type: 'boolean' },
    settings: { type: 'object', additionalProperties: SETTING_VALUE },
    secrets: {
      type: 'object',
      description: 'Which secret settings are set; never their values.',
      additionalProperties: { type: 'boolean' },
    },
    health: { enum: ['ok', 'failing', 'unknown'] },
    lastResult: nullable(
      object(
        {
          outcome: { enum: ['delivered', 'retry', 'reject'] },
          reason: str(),
          status: { type: 'integer' },
          at: str({ format: 'date-time' }),
          durationMs: { type: 'number' },
        },
        ['outcome', 'at', 'durationMs'],
      ),
    ),
    listening: {
      ...object(
        {
          state: { enum: ['listening', 'connecting', 'retrying', 'refused'] },
          reason: str(),
          since: str({ format: 'date-time' }),
        },
        ['state', 'since'],
      ),
      description:
        'Of an enabled provider whose kind carries answers back (the relay, chat channels): whether it reads them now; `reason` is a reason code when retrying or refused; `since` when this state began.',
    },
    createdAt: str({ format: 'date-time' }),
    updatedAt: str({ format: 'date-time' }),
  },
  ['id', 'kind', 'name', 'enabled', 'settings', 'secrets', 'health', 'lastResult', 'createdAt', 'updatedAt'],
);

const SETTINGS_INPUT: JsonSchema = {
  type: 'object',
  description: "Values by setting name (see the kind's declarations); a secret sent as null is cleared.",
  additionalProperties: SETTING_INPUT,
};

const TEST_OUTCOME: JsonSchema = object(
  {
    outcome: { enum: ['delivered', 'retry', 'reject'] },
    reason: str(),
    status: { type: 'integer' },
    summary: str(),
  },
  ['outcome', 'summary'],
);

const CONNECTION: JsonSchema = object(
  {
    state: { enum: ['connected', 'revoked', 'unreachable', 'failing', 'secrets_unreadable'] },
    summary: str(),
    reason: str(),
    status: { type: 'integer' },
    installation: object({ id: str(), name: str() }, ['id', 'name']),
  },
  ['state', 'summary'],
);

const ONE = { 200: PROVIDER, 400: ERROR, 401: ERROR, 404: ERROR };

export const PROVIDER_SCHEMAS = {
  kinds: {
    summary: 'Provider kinds and their declared settings',
    response: { 200: arrayOf(PROVIDER_KIND), 401: ERROR },
  },
  list: {
    summary: 'Providers with health and last result',
    response: { 200: arrayOf(PROVIDER), 401: ERROR },
  },
  create: {
    summary: 'Create a provider (disabled)',
    body: closedObject(
      {
        kind: str(),
        name: str({ minLength: 1, maxLength: 100 }),
        settings: SETTINGS_INPUT,
        enabled: { type: 'boolean', description: 'ignored: a new provider starts disabled' },
      },
      ['kind'],
    ),
    response: { 201: PROVIDER, 400: ERROR, 401: ERROR },
  },
  get: { summary: 'One provider', params: ID_PARAMS, response: ONE },
  update: {
    summary: 'Change name, settings (only those sent) or enabled',
    params: ID_PARAMS,
    body: closedObject({
      name: str({ minLength: 1, maxLength: 100 }),
      settings: SETTINGS_INPUT,
      enabled: { type: 'boolean' },
    }),
    response: ONE,
  },
  remove: {
    summary: 'Delete a provider and its routes',
    params: ID_PARAMS,
    response: { 204: null, 401: ERROR, 404: ERROR },
  },
  enable: { summary: 'Enable a provider', params: ID_PARAMS, response: ONE },
  disable: { summary: 'Disable a provider', params: ID_PARAMS, response: ONE },
  test: {
    summary: 'Send the fixed test notification through the provider',
    params: ID_PARAMS,
    response: { 200: TEST_OUTCOME, 401: ERROR, 404: ERROR },
  },
  connection: {
    summary:
      "Ask the provider's service whether it still accepts the provider's credential (relay: GET /v1/installation)",
    params: ID_PARAMS,
    response: { 200: CONNECTION, 400: ERROR, 401: ERROR, 404: ERROR },
  },
} satisfies Record<string, RouteSchema>;

/** Handlers of /v1/provider-kinds and /v1/providers. */
export function providerHandlers(service: ProviderService) {
  return {
    kinds: async () =>
      service.kinds().map(({ id, title, description, lifecycle, settings }) => ({
        id,
        title,
        description,
        lifecycle,
        settings,
      })),
    ...switchableResourceHandlers(service),
    test: async (request: IdRequest) => service.test(request.params.id),
    connection: async (request: IdRequest) => service.connection(request.params.id),
  };
}
