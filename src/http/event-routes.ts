import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventService } from '../broker/event-service.js';
import { toDto } from '../domain/notification.js';

/** Handler of POST /v1/events: 201 when a notification was newly persisted, 200 for every other success. */
export function eventHandlers(service: EventService) {
  return {
    receive: async (request: FastifyRequest, reply: FastifyReply) => {
      const { record, created } = await service.handle(request.body);
      return reply.code(created ? 201 : 200).send(toDto(record));
    },
  };
}
