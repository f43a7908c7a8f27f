/** The sender's API of docs/relay-protocol.md: discovery, pairing, installation, delivery. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkDelivered,
  IDEMPOTENCY_KEY,
  MAX_NOTIFICATIONS_PER_INSTALLATION,
  NOTIFICATION_ID,
  type Stored,
} from '../domain/delivery.js';
import { cleanName } from '../domain/pairing.js';
import type { Installation } from '../store.js';
import { displayUserCode, hashSecret } from '../secrets.js';
import type { RouteContext } from './context.js';
import { sendError } from './errors.js';
import { bearer, originOf } from './security.js';

/** A JSON answer that no cache keeps; `text` is already serialized (a stored answer, replayed as it was). */
function jsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(text);
}

function json(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return jsonText(reply, status, JSON.stringify(body));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The installation of the request's credential, or the 401 already sent. */
export async function authenticated(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Installation | undefined> {
  const credential = bearer(request);
  const installation = credential === undefined ? undefined : await context.relay.authenticate(credential);
  if (!installation) {
    sendError(reply, 'invalid_auth', 'The credential is missing, unknown or revoked.');
    return undefined;
  }
  return installation;
}

/**
 * The installation of the request's credential while it is within its delivery rate, or undefined
 * with the 401 or 429 already sent.
 */
export async function deliveringInstallation(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Installation | undefined> {
  const installation = await authenticated(context, request, reply);
  if (!installation) return undefined;
  const verdict = context.limits.delivery.take(installation.id);
  if (!verdict.allowed) {
    sendError(
      reply,
      'rate_limited',
      'Too many deliveries from this installation.',
      verdict.retryAfterSeconds,
    );
    return undefined;
  }
  return installation;
}

function statusBody(stored: Stored): { id: string; lifecycle: number; status: string } {
  return { id: stored.notificationId, lifecycle: stored.lifecycle, status: stored.status };
}

export function registerApiRoutes(app: FastifyInstance, context: RouteContext): void {
  const { relay, limits } = context;

  app.get('/.well-known/notify-relay', async (_request, reply) =>
    json(reply, 200, { service: 'notify-relay', name: relay.name, api_versions: ['v1'] }),
  );

  app.post('/v1/pairings', async (request, reply) => {
    const verdict = limits.pairing.take(request.ip);
    if (!verdict.allowed) {
      return sendError(
        reply,
        'rate_limited',
        'Too many pairing requests from this address.',
        verdict.retryAfterSeconds,
      );
    }
    const body = request.body;
    if (!isObject(body)) return sendError(reply, 'invalid_request', 'The body must be a JSON object.');
    const senderName = cleanName(body['sender_name'], 100);
    if (senderName === undefined) {
      return sendError(
        reply,
        'invalid_request',
        'sender_name must be 1-100 characters without control characters.',
      );
    }
    const client = body['client'] === undefined ? null : cleanName(body['client'], 100);
    if (client === undefined) {
      return sendError(
        reply,
        'invalid_request',
        'client must be 1-100 characters without control characters.',
      );
    }
    const { pairing, pollSecret } = await relay.createPairing(senderName, client);
    const origin = originOf(request, context.publicUrl);
    const code = displayUserCode(pairing.userCode);
    return json(reply, 201, {
      pairing_id: pairing.id,
      user_code: code,
      verification_uri: `${origin}/pair`,
      verification_uri_complete: `${origin}/pair?code=${code}`,
      poll_secret: pollSecret,
      expires_in: Math.round((pairing.expiresAt - pairing.createdAt) / 1000),
      interval: pairing.intervalSeconds,
    });
  });

  app.post<{ Params: { id: string } }>('/v1/pairings/:id/poll', async (request, reply) => {
    const verdict = limits.poll.take(request.ip);
    if (!verdict.allowed) {
      return sendError(reply, 'rate_limited', 'Too many polls from this address.', verdict.retryAfterSeconds);
    }
    const secret = bearer(request);
    const answer = secret === undefined ? undefined : await relay.poll(request.params.id, secret);
    if (!answer)
      return sendError(reply, 'invalid_auth', 'The pairing is unknown or the poll secret is wrong.');
    return json(reply, 200, answer);
  });

  app.get('/v1/installation', async (request, reply) => {
    const installation = await authenticated(context, request, reply);
    if (!installation) return reply;
    return json(reply, 200, {
      id: installation.id,
      name: installation.name,
      relay_name: relay.name,
      owner: (await relay.ownerOf(installation))?.username,
      created_at: new Date(installation.createdAt).toISOString(),
    });
  });

  app.put<{ Params: { id: string } }>('/v1/notifications/:id', async (request, reply) => {
    const installation = await deliveringInstallation(context, request, reply);
    if (!installation) return reply;
    const id = request.params.id;
    if (!NOTIFICATION_ID.test(id)) {
      return sendError(
        reply,
        'invalid_request',
        'The notification id must be 1-100 characters of A-Z a-z 0-9 . _ : -.',
      );
    }
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
      return sendError(
        reply,
        'invalid_request',
        'The Idempotency-Key header must be 1-200 visible ASCII characters.',
      );
    }
    const checked = checkDelivered(request.body);
    if (!checked.ok) return sendError(reply, 'invalid_request', checked.message);
    const requestHash = hashSecret(`PUT ${id}\n${JSON.stringify(request.body)}`);
    const answer = await relay.deliver(installation, id, checked.value, { key, requestHash });
    if (answer === 'key_reused') {
      return sendError(
        reply,
        'idempotency_key_reused',
        'This Idempotency-Key was used before with another request.',
      );
    }
    if (answer === 'storage_full') {
      return sendError(
        reply,
        'storage_full',
        `This installation has ${MAX_NOTIFICATIONS_PER_INSTALLATION} notifications on the relay and all of them are active; resolve or dismiss some, then deliver again.`,
      );
    }
    return jsonText(reply, answer.status, answer.body);
  });

  app.post<{ Params: { id: string } }>('/v1/notifications/:id/status', async (request, reply) => {
    const installation = await deliveringInstallation(context, request, reply);
    if (!installation) return reply;
    const body = request.body;
    const status = isObject(body) ? body['status'] : undefined;
    if (status !== 'resolved' && status !== 'dismissed') {
      return sendError(reply, 'invalid_request', 'status must be resolved or dismissed.');
    }
    const stored = await relay.senderStatus(installation, request.params.id, status);
    if (!stored)
      return sendError(reply, 'not_found', 'This installation delivered no notification with this id.');
    return json(reply, 200, statusBody(stored));
  });
}
