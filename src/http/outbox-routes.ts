import type { FastifyRequest } from 'fastify';
import type { OutboxService } from '../broker/outbox-service.js';
import { OUTBOX_STATES } from '../store/outbox-store.js';
import {
  arrayOf,
  ERROR,
  ID_PARAMS,
  nullable,
  object,
  str,
  type JsonSchema,
  type RouteSchema,
} from './schema-kit.js';

const ITEM: JsonSchema = object(
  {
    id: { type: 'integer' },
    notificationId: str(),
    routeId: str(),
    providerId: str(),
    operation: { enum: ['send', 'update', 'clear'] },
    event: str(),
    idempotencyKey: str(),
    state: { enum: [...OUTBOX_STATES] },
    attempts: { type: 'integer' },
    nextAttemptAt: nullable(str({ format: 'date-time' })),
    waitingUntil: {
      ...nullable(str({ format: 'date-time' })),
      description:
        "set while a send waits for its route's delaySeconds (state waiting): it starts no earlier, and is cancelled, unsent, if the notification is resolved, dismissed or answered before it starts",
    },
    lastReason: nullable(str()),
    lastStatus: nullable({ type: 'integer' }),
    seen: {
      ...nullable(object({ at: str({ format: 'date-time' }), device: nullable(str()) }, ['at', 'device'])),
      description:
        "of a send: when the person acknowledged it on the phone, and on which device, as its provider said when asked later (Pushover's emergency receipts); null until then",
    },
    createdAt: str({ format: 'date-time' }),
    updatedAt: str({ format: 'date-time' }),
  },
  [
    'id',
    'notificationId',
    'routeId',
    'providerId',
    'operation',
    'event',
    'idempotencyKey',
    'state',
    'attempts',
    'nextAttemptAt',
    'waitingUntil',
    'lastReason',
    'lastStatus',
    'seen',
    'createdAt',
    'updatedAt',
  ],
);

const COUNTS: JsonSchema = object(
  Object.fromEntries(OUTBOX_STATES.map((state) => [state, { type: 'integer' }])),
  [...OUTBOX_STATES],
);

export const OUTBOX_SCHEMAS = {
  list: {
    summary: 'Outbox items, newest first',
    querystring: object({
      state: { enum: [...OUTBOX_STATES] },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
      notificationId: str({ description: "that notification's deliveries only: attempts and reasons" }),
    }),
    response: { 200: arrayOf(ITEM), 400: ERROR, 401: ERROR },
  },
  counts: { summary: 'Items by state', response: { 200: COUNTS, 401: ERROR } },
  retry: {
    summary: 'Put a dead item back in line with fresh attempts',
    params: ID_PARAMS,
    response: { 200: ITEM, 400: ERROR, 401: ERROR, 404: ERROR },
  },
  purge: {
    summary: 'Delete delivered items',
    response: { 200: object({ purged: { type: 'integer' } }, ['purged']), 401: ERROR },
  },
} satisfies Record<string, RouteSchema>;

/** Handlers of /v1/outbox. */
export function outboxHandlers(service: OutboxService) {
  return {
    list: async (
      request: FastifyRequest<{ Querystring: { state?: string; limit?: string; notificationId?: string } }>,
    ) => service.list(request.query),
    counts: async () => service.counts(),
    retry: async (request: FastifyRequest<{ Params: { id: string } }>) => service.retry(request.params.id),
    purge: async () => service.purgeDelivered(),
  };
}
