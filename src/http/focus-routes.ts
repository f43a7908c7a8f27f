import type { FastifyRequest } from 'fastify';
import type { FocusService } from '../broker/focus-service.js';

/** POST /v1/notifications/{id}/focus: the API, the web page and `notifyctl focus`. */
export function focusHandlers(focus: FocusService) {
  return {
    focus: async (request: FastifyRequest<{ Params: { id: string } }>) =>
      focus.focus(request.params.id, 'the API'),
  };
}
