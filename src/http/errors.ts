import type { FastifyReply, FastifyRequest } from 'fastify';
import { AgentTokenRefusedError } from '../domain/agent-token.js';
import { ConflictError, InvalidRequestError, NotFoundError, UnavailableError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import { jsonText } from './json-newline.js';
import { storageProblemOf, type StorageProblem } from '../store/storage-errors.js';

/** What a caller is told when the database refused a write (docs/api.md "Errors"); nothing was changed. */
const STORAGE_ANSWERS: Record<StorageProblem, { status: number; message: string; retryAfter?: string }> = {
  full: { status: 507, message: 'the disk holding the Notify database is full; nothing was changed' },
  busy: {
    status: 503,
    message: 'the Notify database is locked by another program; nothing was changed, retry shortly',
    retryAfter: '1',
  },
  failed: {
    status: 503,
    message: 'the Notify database could not be written; nothing was changed, see the Notify log',
  },
};

/** The sentence each failed request is logged with, kept per request until its response is done. */
const failures = new WeakMap<FastifyRequest, string>();

export function failureOf(request: FastifyRequest): string | undefined {
  return failures.get(request);
}

/**
 * Every error answer is `{"error": message}`, except 413 which has no body (spec "Errors"). The log
 * line gets `logAs`, the message unless the caller has a shorter one.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  logAs = message,
): FastifyReply {
  failures.set(request, logAs);
  if (bodyStillComing(request)) reply.header('connection', 'close');
  if (status === 413) return reply.code(413).header('connection', 'close').send();
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(jsonText({ error: message }));
}

/**
 * An answer given before the body was read (401, 421, 413, ...) must not be followed by reading that
 * body to its end: it can be endless. `Connection: close` makes Node close the socket once the answer
 * is written instead of draining the rest for the next request.
 */
function bodyStillComing(request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete) return false;
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
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
    if (error instanceof AgentTokenRefusedError) return sendError(request, reply, 403, error.message);
    const storage = storageProblemOf(error);
    if (storage) {
      const answer = STORAGE_ANSWERS[storage.problem];
      if (answer.retryAfter) reply.header('retry-after', answer.retryAfter);
      sendError(request, reply, answer.status, answer.message);
      // The one log line of the failed request (onResponse) also carries SQLite's own words.
      failures.set(request, `${answer.message} (${storage.detail})`);
      return reply;
    }
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
