import type { FastifyReply, FastifyRequest } from 'fastify';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * A collection whose items are created disabled, changed, switched on and off, and deleted (providers,
 * delivery routes): its service as the handlers need it. Errors are the service's own (HttpError).
 */
export interface SwitchableResource<View> {
  list(): View[];
  get(id: string): View;
  create(body: unknown): View | Promise<View>;
  update(id: string, body: unknown): View | Promise<View>;
  setEnabled(id: string, enabled: boolean): View;
  delete(id: string): void;
}

/** Handlers of list, create (201), get, update, remove (204), enable and disable. */
export function switchableResourceHandlers<View>(service: SwitchableResource<View>) {
  return {
    list: async () => service.list(),
    create: async (request: FastifyRequest, reply: FastifyReply) =>
      reply.code(201).send(await service.create(request.body)),
    get: async (request: IdRequest) => service.get(request.params.id),
    update: async (request: IdRequest) => service.update(request.params.id, request.body),
    remove: async (request: IdRequest, reply: FastifyReply) => {
      service.delete(request.params.id);
      return reply.code(204).send();
    },
    enable: async (request: IdRequest) => service.setEnabled(request.params.id, true),
    disable: async (request: IdRequest) => service.setEnabled(request.params.id, false),
  };
}
