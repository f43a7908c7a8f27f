import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NotificationService } from '../broker/notification-service.js';
import { toDto } from '../domain/notification.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type ListRequest = FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>;

/** Handlers of /v1/notifications; each one translates HTTP to a service call and back. */
export function notificationHandlers(service: NotificationService) {
  return {
    create: async (request: FastifyRequest, reply: FastifyReply) =>
      reply.code(201).send(toDto((await service.create(request.body)).record)),
    list: async (request: ListRequest) => service.list(request.query).map(toDto),
    get: async (request: IdRequest) => toDto(service.get(request.params.id)),
    changeStatus: async (request: IdRequest) =>
      toDto(await service.changeStatus(request.params.id, request.body)),
    dismiss: async (request: IdRequest) => toDto(await service.dismiss(request.params.id)),
  };
}
