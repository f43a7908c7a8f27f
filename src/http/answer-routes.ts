import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NotificationService } from '../broker/notification-service.js';
import { API_SURFACES } from '../domain/answers.js';
import { InvalidRequestError } from '../domain/errors.js';
import { toDto, type NotificationDto } from '../domain/notification.js';
import { sendError } from './errors.js';
import type { StreamDeps } from './stream-routes.js';
import { NOTIFICATION } from './notification-routes.js';
import { closedObject, ERROR, ID_PARAMS, str, type RouteSchema } from './schema-kit.js';

/** The longest a waiter holds its request: below the header time-outs of common HTTP clients. */
export const MAX_WAIT_SECONDS = 120;

export const ANSWER_SCHEMAS = {
  answer: {
    summary: "Record the person's answer (one of the notification's actions); the first answer resolves it",
    params: ID_PARAMS,
    body: closedObject(
      {
        action: str({ minLength: 1, maxLength: 64 }),
        surface: { enum: [...API_SURFACES], default: 'cli' },
        revision: {
          type: 'integer',
          minimum: 1,
          description:
            "the notification's revision the person saw; another than the current one is refused (409)",
        },
      },
      ['action'],
    ),
    response: { 200: NOTIFICATION, 400: ERROR, 401: ERROR, 404: ERROR, 409: ERROR, 429: ERROR },
  },
  wait: {
    summary:
      'Wait until the notification is answered, resolved or dismissed, or waitSeconds pass; answers the Notification',
    params: ID_PARAMS,
    querystring: {
      type: 'object',
      properties: {
        waitSeconds: { type: 'integer', minimum: 0, maximum: MAX_WAIT_SECONDS, default: 0 },
      },
    },
    response: { 200: NOTIFICATION, 400: ERROR, 401: ERROR, 404: ERROR, 503: ERROR },
  },
} satisfies Record<string, RouteSchema>;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type WaitRequest = FastifyRequest<{
  Params: { id: string };
  Querystring: Record<string, string | string[] | undefined>;
}>;

/** Committed changes; a waiter takes one of the event stream's places while it waits. */
export type WaiterDeps = Pick<StreamDeps, 'changes' | 'maxSubscribers'>;

/**
 * POST answers; GET waits for the outcome without polling: it answers at once when the notification
 * is no longer active, else at its first change out of active, at the deadline, or when the broker stops.
 */
export function answerHandlers(notifications: NotificationService, deps: WaiterDeps) {
  return {
    answer: async (request: IdRequest) => toDto(await notifications.answer(request.params.id, request.body)),
    wait: async (request: WaitRequest, reply: FastifyReply) => {
      const waitMs = waitSecondsOf(request.query['waitSeconds']) * 1000;
      const current = toDto(notifications.get(request.params.id));
      if (current.status !== 'active' || waitMs === 0) return current;
      if (deps.changes.subscriberCount >= deps.maxSubscribers) {
        reply.header('retry-after', '5');
        return sendError(
          request,
          reply,
          503,
          `too many open event streams and waiters (${deps.maxSubscribers}); close one and try again`,
        );
      }
      // Reading and subscribing run in one turn of the event loop, so no change can fall in between.
      const prefix = `{"id":${JSON.stringify(current.id)},`;
      return new Promise<NotificationDto>((resolve) => {
        const finish = (notification: NotificationDto) => {
          clearTimeout(timer);
          unsubscribe();
          resolve(notification);
        };
        const latest = () => {
          try {
            return toDto(notifications.get(current.id));
          } catch {
            return current;
          }
        };
        const unsubscribe = deps.changes.subscribe(
          (event) => {
            if (!event.data.startsWith(prefix)) return;
            const notification = JSON.parse(event.data) as NotificationDto;
            if (notification.status !== 'active') finish(notification);
          },
          () => finish(latest()),
        );
        const timer = setTimeout(() => finish(latest()), waitMs);
        reply.raw.once('close', () => {
          clearTimeout(timer);
          unsubscribe();
        });
      });
    },
  };
}

/** `?waitSeconds=<0..120>`, default 0 (answer at once). */
function waitSecondsOf(value: string | string[] | undefined): number {
  if (value === undefined) return 0;
  const text = Array.isArray(value) ? value[value.length - 1]! : value;
  const seconds = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= 0 && seconds <= MAX_WAIT_SECONDS))
    throw new InvalidRequestError(`waitSeconds must be an integer from 0 to ${MAX_WAIT_SECONDS}`);
  return seconds;
}
