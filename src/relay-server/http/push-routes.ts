/**
 * Phone push over HTTP (docs/relay-protocol.md "Phone push"): the inbox API for a person's devices
 * (session cookie plus CSRF token, like the rest of /v1/inbox/), and the answer a push carries, which
 * its single-use token authorizes without a cookie (a service worker has no CSRF token).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PUSH_PRIVACY, type PushPrivacy } from '../domain/push-payload.js';
import { checkSubscription, MAX_SUBSCRIPTIONS_PER_PERSON } from '../domain/push-subscription.js';
import type { User } from '../store.js';
import type { RouteContext } from './context.js';
import { sendError } from './errors.js';
import { CSRF_HEADER, isGenuine, originOf } from './security.js';
import { signedInUser } from './session.js';

export const PUSH_PATHS = [
  '/v1/inbox/push/key',
  '/v1/inbox/push/subscriptions',
  '/v1/inbox/push/subscriptions/:id',
  '/v1/inbox/push/subscriptions/:id/test',
  '/v1/inbox/push/privacy',
  '/v1/push/notifications/:inboxId/answer',
];

const TOKEN = /^nrt_[A-Za-z0-9_-]{43}$/;

const TOKEN_REFUSALS = {
  foreign: ['forbidden', 'This answer link is not valid for this notification.'],
  used: ['conflict', 'This answer link was used already.'],
  unknown_action: ['invalid_request', 'This notification does not offer that action.'],
  not_active: ['conflict', 'This notification is no longer active.'],
  answered: ['conflict', 'This notification was already answered.'],
  other_lifecycle: ['conflict', 'This notification changed since the push; open it to see what it asks now.'],
  other_revision: ['conflict', 'This notification changed since the push; open it to see what it asks now.'],
  terminal_only: [
    'conflict',
    'Answer in the terminal: this text contains characters that change how it is displayed.',
  ],
} as const;

function fields(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

const noStore = (reply: FastifyReply): FastifyReply => reply.header('cache-control', 'no-store');

export function registerPushRoutes(app: FastifyInstance, context: RouteContext): void {
  const { push, relay } = context;

  async function reader(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
    const user = await signedInUser(context, request);
    if (!user) sendError(reply, 'invalid_auth', 'Sign in first.');
    return user;
  }

  async function changer(request: FastifyRequest, reply: FastifyReply): Promise<User | undefined> {
    const user = await reader(request, reply);
    if (!user) return undefined;
    if (!isGenuine(request, request.headers[CSRF_HEADER], context.publicUrl)) {
      sendError(reply, 'csrf', 'The CSRF token is missing or wrong; reload the page.');
      return undefined;
    }
    return user;
  }

  app.get('/v1/inbox/push/key', async (request, reply) => {
    if (!(await reader(request, reply))) return reply;
    return noStore(reply).send({ publicKey: push.publicKey });
  });

  app.get('/v1/inbox/push/subscriptions', async (request, reply) => {
    const user = await reader(request, reply);
    if (!user) return reply;
    return noStore(reply).send({
      subscriptions: await push.devices(user),
      privacy: await push.privacy(user),
    });
  });

  app.post('/v1/inbox/push/subscriptions', async (request, reply) => {
    const user = await changer(request, reply);
    if (!user) return reply;
    const checked = checkSubscription(request.body, push.allowLoopback);
    if (!checked.ok) return sendError(reply, 'invalid_request', checked.message);
    const result = await push.subscribe(user, checked.value, originOf(request, context.publicUrl));
    if (result === 'full')
      return sendError(
        reply,
        'conflict',
        `You have ${MAX_SUBSCRIPTIONS_PER_PERSON} devices for alerts already; remove one first.`,
      );
    return noStore(reply)
      .code(result.created ? 201 : 200)
      .send({ id: result.id });
  });

  app.delete<{ Params: { id: string } }>('/v1/inbox/push/subscriptions/:id', async (request, reply) => {
    const user = await changer(request, reply);
    if (!user) return reply;
    if (!(await push.remove(user, request.params.id)))
      return sendError(reply, 'not_found', 'No such device among yours.');
    return noStore(reply).code(204).send();
  });

  app.post<{ Params: { id: string } }>('/v1/inbox/push/subscriptions/:id/test', async (request, reply) => {
    const user = await changer(request, reply);
    if (!user) return reply;
    if (!(await push.sendTest(user, request.params.id)))
      return sendError(reply, 'not_found', 'No such device among yours.');
    return noStore(reply).code(202).send({ queued: true });
  });

  app.put('/v1/inbox/push/privacy', async (request, reply) => {
    const user = await changer(request, reply);
    if (!user) return reply;
    const privacy = fields(request)['privacy'];
    if (!PUSH_PRIVACY.includes(privacy as PushPrivacy))
      return sendError(reply, 'invalid_request', 'privacy must be one of full, title, generic.');
    await push.setPrivacy(user, privacy as PushPrivacy);
    return noStore(reply).send({ privacy });
  });

  app.post<{ Params: { inboxId: string } }>(
    '/v1/push/notifications/:inboxId/answer',
    async (request, reply) => {
      const { action, token } = fields(request);
      const inboxId = /^\d{1,15}$/.test(request.params.inboxId) ? Number(request.params.inboxId) : undefined;
      if (typeof action !== 'string' || typeof token !== 'string')
        return sendError(reply, 'invalid_request', 'action and token are required.');
      if (inboxId === undefined || !TOKEN.test(token)) return sendError(reply, ...TOKEN_REFUSALS.foreign);
      const result = await relay.answerWithToken(inboxId, token, action);
      if (typeof result === 'string') {
        const [code, description] = TOKEN_REFUSALS[result];
        return sendError(reply, code, description);
      }
      return noStore(reply).send({
        id: result.id,
        lifecycle: result.lifecycle,
        revision: result.revision,
        status: result.status,
        answer: result.answer,
      });
    },
  );
}
