import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AgentTokens } from '../broker/agent-tokens.js';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../domain/agent-token.js';
import { arrayOf, closedObject, ERROR, nullable, object, str, type RouteSchema } from './schema-kit.js';

const TIME = str({ format: 'date-time' });

const TOKEN_VIEW = object(
  { name: str(), createdAt: TIME, lastUsedAt: nullable(TIME), expiresAt: nullable(TIME) },
  ['name', 'createdAt', 'lastUsedAt', 'expiresAt'],
);

const NAME_PARAMS = { type: 'object', required: ['name'], properties: { name: str() } };

export const TOKEN_SCHEMAS = {
  list: {
    summary: 'Agent tokens by name, never their value (owner token only)',
    response: { 200: object({ tokens: arrayOf(TOKEN_VIEW) }, ['tokens']), 401: ERROR, 403: ERROR },
  },
  create: {
    summary: 'Make an agent token: it raises and follows only its own notifications; its value is shown once',
    body: closedObject(
      {
        name: str({ pattern: '^[a-z0-9][a-z0-9._-]{0,62}$' }),
        expiresInSeconds: { type: 'integer', minimum: 60, maximum: MAX_TOKEN_LIFETIME_SECONDS },
      },
      ['name'],
    ),
    response: {
      201: object({ ...(TOKEN_VIEW['properties'] as object), token: str() }, [
        'name',
        'createdAt',
        'lastUsedAt',
        'expiresAt',
        'token',
      ]),
      400: ERROR,
      401: ERROR,
      403: ERROR,
      409: ERROR,
    },
  },
  revoke: {
    summary: 'Revoke an agent token: it is refused (401) from the next request on',
    params: NAME_PARAMS,
    response: { 204: null, 401: ERROR, 403: ERROR, 404: ERROR },
  },
} satisfies Record<string, RouteSchema>;

type NameRequest = FastifyRequest<{ Params: { name: string } }>;

export function tokenHandlers(tokens: AgentTokens) {
  return {
    list: async () => ({ tokens: tokens.list() }),
    create: async (request: FastifyRequest, reply: FastifyReply) => {
      const { token, view } = await tokens.create(request.body);
      return reply.code(201).send({ ...view, token });
    },
    revoke: async (request: NameRequest, reply: FastifyReply) => {
      await tokens.revoke(request.params.name);
      return reply.code(204).send();
    },
  };
}
