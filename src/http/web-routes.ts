import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSessions } from '../broker/web-sessions.js';
import { sendError } from './errors.js';
import { NotFoundError } from '../domain/errors.js';
import { formatTimestamp } from '../domain/notification.js';
import { arrayOf, ERROR, ID_PARAMS, nullable, object, str, type RouteSchema } from './schema-kit.js';
import { webSessionOf } from './web-session-auth.js';

export interface WebRouteDeps {
  /** The built page (dist/web): index.html and assets/. */
  root: string;
  sessions: WebSessions;
  /** The port the broker listens on, for the sign-in link. */
  port: () => number;
}

const TIME = str({ format: 'date-time' });

const SESSION_LIST_ITEM = object(
  {
    id: str(),
    createdAt: TIME,
    lastSeenAt: TIME,
    expiresAt: TIME,
    userAgent: nullable(str()),
    current: { type: 'boolean', description: 'the session this request was signed in with' },
  },
  ['id', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent', 'current'],
);

export const WEB_SCHEMAS = {
  loginCode: {
    summary: 'A one-time sign-in link to the web page: valid 60 s, single use (bearer token only)',
    response: {
      201: object({ url: str({ format: 'uri' }), expiresAt: TIME }, ['url', 'expiresAt']),
      401: ERROR,
    },
  },
  session: {
    summary: "The web page's own session (Authorization: Session only)",
    response: {
      200: object({ id: str(), createdAt: TIME, expiresAt: TIME, idleExpiresAt: TIME }, [
        'id',
        'createdAt',
        'expiresAt',
        'idleExpiresAt',
      ]),
      401: ERROR,
    },
  },
  sessions: {
    summary: 'Signed-in web page sessions, newest first',
    response: { 200: object({ sessions: arrayOf(SESSION_LIST_ITEM) }, ['sessions']), 401: ERROR },
  },
  revoke: {
    summary: 'End one web page session',
    params: ID_PARAMS,
    response: { 204: null, 401: ERROR, 403: ERROR, 404: ERROR },
  },
  revokeAll: {
    summary: 'End every web page session',
    response: { 200: object({ revoked: { type: 'integer' } }, ['revoked']), 401: ERROR, 403: ERROR },
  },
  logout: {
    summary: "End this request's own web page session (Authorization: Session only)",
    response: { 204: null, 401: ERROR, 403: ERROR },
  },
} satisfies Record<string, RouteSchema>;

/** Handlers of /v1/web: sign-in links and the page's sessions. */
export function webHandlers(deps: WebRouteDeps) {
  // deps.sessions is read per call: the OpenAPI script builds the table without services.
  return {
    loginCode: async (_request: FastifyRequest, reply: FastifyReply) => {
      const { code, expiresAt } = deps.sessions.mintLoginCode();
      return reply.code(201).send({
        url: `http://127.0.0.1:${deps.port()}/login?code=${code}`,
        expiresAt: formatTimestamp(expiresAt),
      });
    },
    session: async (request: FastifyRequest, reply: FastifyReply) => {
      const signedIn = webSessionOf(request)!;
      const session = deps.sessions.authenticate(signedIn.secret);
      // Revoked between the guard and here.
      if (!session) return sendError(request, reply, 401, 'unauthorized');
      const view = deps.sessions.view(session);
      return {
        id: view.id,
        createdAt: view.createdAt,
        expiresAt: view.expiresAt,
        idleExpiresAt: view.idleExpiresAt,
      };
    },
    sessions: async (request: FastifyRequest) => {
      const current = webSessionOf(request)?.id;
      return {
        sessions: deps.sessions.list().map((session) => {
          const { id, createdAt, lastSeenAt, expiresAt, userAgent } = deps.sessions.view(session);
          return { id, createdAt, lastSeenAt, expiresAt, userAgent, current: id === current };
        }),
      };
    },
    revoke: async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      if (!(await deps.sessions.revoke(request.params.id))) throw new NotFoundError('session not found');
      return reply.code(204).send();
    },
    revokeAll: async () => ({ revoked: await deps.sessions.revokeAll() }),
    logout: async (request: FastifyRequest, reply: FastifyReply) => {
      await deps.sessions.revoke(webSessionOf(request)!.id);
      return reply.code(204).send();
    },
  };
}
