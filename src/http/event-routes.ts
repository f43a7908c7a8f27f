import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventService } from '../broker/event-service.js';
import { toDto } from '../domain/notification.js';
import { agentOf } from './agent-auth.js';
import { NOTIFICATION } from './notification-routes.js';
import { ERROR, type RouteSchema } from './schema-kit.js';

export const EVENT_SCHEMAS = {
  receive: {
    summary: 'Receive an ARC 0.1 event (request.created, request.updated, request.resolved)',
    body: { $ref: '#/components/schemas/ArcEnvelope' },
    response: {
      200: NOTIFICATION,
      201: NOTIFICATION,
      400: ERROR,
      401: ERROR,
      403: ERROR,
      404: ERROR,
      413: null,
      429: ERROR,
    },
  },
} satisfies Record<string, RouteSchema>;

/** POST /v1/events, for fastify's handler and the fast path (fast-create.ts) alike. */
export const receiveEvent =
  (service: EventService) =>
  async (body: unknown, raisedBy?: string): Promise<{ status: number; value: unknown }> => {
    const { record, created } = await service.handle(body, raisedBy);
    return { status: created ? 201 : 200, value: toDto(record) };
  };

/** Handler of POST /v1/events: 201 when a notification was newly persisted, 200 for every other success. */
export function eventHandlers(service: EventService) {
  const receiveRoute = receiveEvent(service);
  return {
    receive: async (request: FastifyRequest, reply: FastifyReply) => {
      const { status, value } = await receiveRoute(request.body, agentOf(request));
      return reply.code(status).send(value);
    },
  };
}
