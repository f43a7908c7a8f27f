/** The inbox page's JSON API (docs/relay-protocol.md, Browser API): session cookie plus CSRF token. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TERMINAL_ONLY } from '../../domain/display-controls.js';
import type { User } from '../store.js';
import type { RouteContext } from './context.js';
import { sendError } from './errors.js';
import { CSRF_HEADER, isGenuine } from './security.js';
import { signedInUser } from './session.js';

type ItemRequest = FastifyRequest<{ Params: { inboxId: string } }>;

const REFUSALS = {
  unknown_action: ['invalid_request', 'This notification does not offer that action.'],
  not_active: ['conflict', 'This notification is no longer active.'],
  answered: ['conflict', 'This notification was already answered.'],
  other_lifecycle: ['conflict', 'This notification changed since the page showed it; look again.'],
  terminal_only: ['conflict', `${TERMINAL_ONLY.charAt(0).toUpperCase()}${TERMINAL_ONLY.slice(1)}.`],
  other_revision: [
    'conflict',
    'This request changed after the page showed it, so your answer was not given; look at it again and answer what it asks now.',
  ],
} as const;

function fields(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

export function registerInboxRoutes(app: FastifyInstance, context: RouteContext): void {
  const { relay } = context;

  /** The signed-in person for a change, or the error already sent. */
  async function changer(
    request: ItemRequest,
    reply: FastifyReply,
  ): Promise<{ user: User; inboxId: number; lifecycle: number } | undefined> {
    const user = await signedInUser(context, request);
    if (!user) {
      sendError(reply, 'invalid_auth', 'Sign in first.');
      return undefined;
    }
    if (!isGenuine(request, request.headers[CSRF_HEADER], context.publicUrl)) {
      sendError(reply, 'csrf', 'The CSRF token is missing or wrong; reload the page.');
      return undefined;
    }
    const inboxId = /^\d{1,15}$/.test(request.params.inboxId) ? Number(request.params.inboxId) : undefined;
    const lifecycle = fields(request)['lifecycle'];
    if (inboxId === undefined || !Number.isSafeInteger(lifecycle)) {
      sendError(
        reply,
        'invalid_request',
        'An inbox id in the path and an integer lifecycle in the body are needed.',
      );
      return undefined;
    }
    return { user, inboxId, lifecycle: lifecycle as number };
  }

  app.get('/v1/inbox/notifications', async (request, reply) => {
    const user = await signedInUser(context, request);
    if (!user) return sendError(reply, 'invalid_auth', 'Sign in first.');
    return reply.header('cache-control', 'no-store').send({ notifications: await relay.inbox(user) });
  });

  app.post('/v1/inbox/notifications/:inboxId/answer', async (request: ItemRequest, reply) => {
    const change = await changer(request, reply);
    if (!change) return reply;
    const { action, revision } = fields(request);
    if (typeof action !== 'string') return sendError(reply, 'invalid_request', 'action is required.');
    if (!Number.isSafeInteger(revision))
      return sendError(reply, 'invalid_request', 'revision is required: the revision the page showed.');
    const result = await relay.answer(
      change.user,
      change.inboxId,
      action,
      change.lifecycle,
      revision as number,
    );
    if (result === 'not_found') return sendError(reply, 'not_found', 'No such notification in your inbox.');
    if (typeof result === 'string') return sendError(reply, REFUSALS[result][0], REFUSALS[result][1]);
    return reply.header('cache-control', 'no-store').send(result);
  });

  app.post('/v1/inbox/notifications/:inboxId/status', async (request: ItemRequest, reply) => {
    const change = await changer(request, reply);
    if (!change) return reply;
    const status = fields(request)['status'];
    if (status !== 'resolved' && status !== 'dismissed') {
      return sendError(reply, 'invalid_request', 'status must be resolved or dismissed.');
    }
    const result = await relay.inboxStatus(change.user, change.inboxId, status, change.lifecycle);
    if (result === 'not_found') return sendError(reply, 'not_found', 'No such notification in your inbox.');
    if (result === 'other_lifecycle') return sendError(reply, 'conflict', REFUSALS.other_lifecycle[1]);
    return reply.header('cache-control', 'no-store').send(result);
  });
}
