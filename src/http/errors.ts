import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, InvalidRequestError, NotFoundError, UnavailableError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';

/** The sentence each failed request is logged with, kept per request until its response is done. */
const failures = new WeakMap<FastifyRequest, string>();

export function failureOf(request: FastifyRequest): string | undefined {
  return failures.get(request);
}

/** Every error answer is `{"error": message}`, except 413 which has no body (spec "Errors"). */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
): FastifyReply {
  failures.set(request, message);
  if (status === 413) return reply.code(413).header('connection', 'close').send();
  return reply.code(status).send({ error: message });
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message: string;
}

/** Maps what a handler or fastify threw to the spec's status and message; anything unknown is a 500. */
export function createErrorHandler(log: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof InvalidRequestError) return sendError(request, reply, 400, error.message);
    if (error instanceof NotFoundError) return sendError(request, reply, 404, error.message);
    if (error instanceof ConflictError) return sendError(request, reply, 409, error.message);
    if (error instanceof UnavailableError) return sendError(request, reply, 503, error.message);
    const framework = error as FrameworkError;
    if (framework.statusCode === 413) return sendError(request, reply, 413, 'request body too large');
    if (framework.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendError(request, reply, 400, 'request body is not valid JSON');
    }
    if (framework.statusCode && framework.statusCode >= 400 && framework.statusCode < 500) {
      return sendError(request, reply, framework.statusCode, framework.message);
    }
    log.error(`${request.method} ${pathOf(request)} failed: ${framework.message}`);
    return sendError(request, reply, 500, 'internal error; see the Notify log');
  };
}

/** The path without its query string: queries are not logged. */
export function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}
