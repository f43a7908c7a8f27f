import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import { errorAnswerOf, INTERNAL_ERROR, internalErrorLine } from './errors.js';
import { authorizationCount, bearerTokenOf, type RateLimiter } from './guards.js';
import { bodyEndedEarly, parseJsonBody } from './json-body.js';
import { jsonText } from './json-newline.js';
import { SECURITY_HEADER_LIST } from './security-headers.js';

/** A create route's work: the parsed body in, the status and the value to answer with out. */
export type FastCreateRoute = (body: unknown) => Promise<{ status: number; value: unknown }>;

export interface FastCreateDeps {
  /** By exact path: POST /v1/notifications and POST /v1/events. */
  routes: ReadonlyMap<string, FastCreateRoute>;
  hostAllowed: (host: string | undefined) => boolean;
  isOwner: (token: string | undefined) => boolean;
  admit: RateLimiter;
  bodyLimit: () => number;
  closing: () => boolean;
  logFailure: (method: string, path: string, status: number, reason: string) => void;
  log: Logger;
}

/** True when nothing about the request needs fastify's guards to answer it: see fastCreate. */
function plainOwnerCreate(request: IncomingMessage, deps: FastCreateDeps): boolean {
  const headers = request.headers;
  if (headers['transfer-encoding'] !== undefined || headers.expect !== undefined) return false;
  const length = headers['content-length'];
  if (length === undefined || !(Number(length) <= deps.bodyLimit())) return false;
  if (!deps.hostAllowed(headers.host) || authorizationCount(request.rawHeaders) !== 1) return false;
  const token = bearerTokenOf(headers.authorization);
  // Counted last, once everything else let it through; a request over the limit goes on to fastify,
  // whose guard counts it again (still over) and answers 429.
  return deps.isOwner(token) && deps.admit(token!);
}

/**
 * The two create routes served below fastify (issue 38): about half of a create's CPU was fastify's
 * routing, request and reply objects. Only a POST to exactly one of them, with a declared length
 * within the limit, the loopback Host, one Authorization header with the owner's token and the rate
 * limit not reached is taken; everything else (another credential, a chunked body, a foreign Host, an
 * Expect header, the broker closing) returns false and goes to fastify, whose guards answer it. What
 * is taken is answered as fastify would: the same security headers, body parser, services, error
 * answers and failure log lines.
 */
export function fastCreate(
  deps: FastCreateDeps,
): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    if (request.method !== 'POST') return false;
    const path = request.url ?? '';
    const route = deps.routes.get(path);
    if (route === undefined || deps.closing() || !plainOwnerCreate(request, deps)) return false;
    const fail = (error: unknown, bodyRefused = false) => {
      if (response.headersSent) return;
      const answer = errorAnswerOf(error);
      if (answer === undefined) deps.log.error(internalErrorLine('POST', path, error));
      const status = answer?.status ?? 500;
      const extra: string[] = [];
      // As fastify does when its body parser refuses: the client may send more.
      if (bodyRefused || status === 413) extra.push('connection', 'close');
      if (answer?.retryAfter) extra.push('retry-after', String(answer.retryAfter));
      if (status === 413) {
        response.writeHead(413, [...SECURITY_HEADER_LIST, ...extra, 'content-length', '0']).end();
      } else {
        send(response, status, { error: answer?.message ?? INTERNAL_ERROR }, extra);
      }
      deps.logFailure('POST', path, status, answer?.logAs ?? answer?.message ?? INTERNAL_ERROR);
    };
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', () => fail(bodyEndedEarly(), true));
    request.on('end', () => {
      let body: unknown;
      try {
        body = parseJsonBody(chunks);
      } catch (error) {
        return fail(error, true);
      }
      route(body).then(({ status, value }) => {
        if (!response.headersSent) send(response, status, value);
      }, fail);
    });
    return true;
  };
}

/** One writeHead with every header as a flat list: a setHeader per header costs a lookup and a check each. */
function send(response: ServerResponse, status: number, value: unknown, extra: readonly string[] = []): void {
  const text = jsonText(value);
  response
    .writeHead(status, [
      ...SECURITY_HEADER_LIST,
      ...extra,
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(text)),
    ])
    .end(text);
}
