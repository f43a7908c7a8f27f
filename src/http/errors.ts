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

/** The answer an error gets: its status, message, the log's longer sentence and a Retry-After. */
export interface ErrorAnswer {
  status: number;
  message: string;
  logAs?: string;
  retryAfter?: string;
}

/**
 * What a handler, the body parser or fastify threw, as the spec's status and message; undefined for
 * anything unknown (a 500). Shared by fastify's error handler and the create fast path.
 */
export function errorAnswerOf(error: unknown): ErrorAnswer | undefined {
  if (error instanceof InvalidRequestError) return { status: 400, message: error.message };
  if (error instanceof NotFoundError) return { status: 404, message: error.message };
  if (error instanceof AgentTokenRefusedError) return { status: 403, message: error.message };
  const storage = storageProblemOf(error);
  if (storage) {
    const answer = STORAGE_ANSWERS[storage.problem];
    // The one log line of the failed request also carries SQLite's own words.
    return { ...answer, logAs: `${answer.message} (${storage.detail})` };
  }
  if (error instanceof ConflictError) return { status: 409, message: error.message };
  if (error instanceof UnavailableError) return { status: 503, message: error.message };
  const framework = error as FrameworkError;
  if (framework.statusCode === 413) return { status: 413, message: 'request body too large' };
  if (framework.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return { status: 400, message: 'request body is not valid JSON' };
  }
  if (framework.statusCode && framework.statusCode >= 400 && framework.statusCode < 500) {
    return { status: framework.statusCode, message: framework.message };
  }
  return undefined;
}

/** The message of a 500, and the log line that says what went wrong. */
export const INTERNAL_ERROR = 'internal error; see the Notify log';
export const internalErrorLine = (method: string, path: string, error: unknown): string =>
  `${method} ${path} failed: ${(error as FrameworkError).message}`;

/** Maps what a handler or fastify threw to the spec's status and message; anything unknown is a 500. */
export function createErrorHandler(log: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const answer = errorAnswerOf(error);
    if (answer === undefined) {
      log.error(internalErrorLine(request.method, pathOf(request), error));
      return sendError(request, reply, 500, INTERNAL_ERROR);
    }
    if (answer.retryAfter) reply.header('retry-after', answer.retryAfter);
    return sendError(request, reply, answer.status, answer.message, answer.logAs);
  };
}

/** The path without its query string: queries are not logged. */
export function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}
