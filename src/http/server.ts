import Fastify, { type FastifyInstance } from 'fastify';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Settings } from '../config/settings.js';
import type { Logger } from '../log/logger.js';
import { createErrorHandler, failureOf, pathOf, sendError } from './errors.js';
import { bearerGuard, declaredLengthGuard, hostGuard, rateLimitGuard, type Guard } from './guards.js';
import { installJsonBodyParser } from './json-body.js';
import { registerRoutes, routeTable, type RouteDeps } from './route-table.js';

export interface HttpDeps extends RouteDeps {
  settings: () => Settings;
  log: Logger;
  clock: () => number;
}

/** The transport: guards in the order the spec implies, the JSON parser, routes, error mapping. */
export function buildHttpServer(deps: HttpDeps): FastifyInstance {
  const malformed = malformedRequests(deps.log);
  const app = Fastify({
    logger: false,
    bodyLimit: Number.MAX_SAFE_INTEGER,
    forceCloseConnections: 'idle',
    requestTimeout: 30_000,
    return503OnClosing: true,
    // A request without Host reaches the host guard (421 with the error shape), not Node's bare 400.
    http: { requireHostHeader: false },
    // Bad percent-encoding in the path, or an over-long id: the spec's `{"error"}` shape, not fastify's.
    frameworkErrors: (error, request, reply) => {
      sendError(request, reply, error.statusCode ?? 400, error.message);
    },
    clientErrorHandler: (error, socket) => malformed.answer(error, socket),
  });
  malformed.track(app.server);
  const settings = deps.settings;
  const guards: Guard[] = [
    hostGuard(() => settings().port),
    declaredLengthGuard(() => settings().maxRequestBodyBytes),
    bearerGuard(() => settings().authToken),
    rateLimitGuard(() => settings().rateLimitPerSecond, deps.clock),
  ];
  app.addHook('onRequest', async (request, reply) => {
    for (const guard of guards) {
      if (guard(request, reply)) return reply;
    }
    return undefined;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 400) {
      const reason = failureOf(request) ?? '';
      deps.log.warn(`${request.method} ${pathOf(request)} -> ${reply.statusCode} ${reason}`.trimEnd());
    }
  });
  installJsonBodyParser(app, () => settings().maxRequestBodyBytes);
  app.setErrorHandler(createErrorHandler(deps.log));
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, `no such endpoint: ${request.method} ${pathOf(request)}`),
  );
  registerRoutes(app, routeTable(deps));
  return app;
}

/**
 * Requests Node's HTTP parser refuses (bad framing, bogus Content-Length, oversized headers) never reach
 * fastify; they are answered here with the spec's `{"error"}` shape and the connection is closed.
 * When the refused bytes follow a complete request that is still being answered (a body longer than its
 * Content-Length), that request keeps its own answer and the connection closes after it: a 400 written
 * first would tell the client its request was refused although it was carried out.
 */
function malformedRequests(log: Logger) {
  const answering = new WeakMap<Socket, { request: IncomingMessage; response: ServerResponse }>();
  const closeWhenAnswered = new WeakSet<Socket>();
  return {
    track(server: Server): void {
      // An Expect other than 100-continue is ignored (RFC 9110 allows it) instead of Node's bare 417.
      server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
        server.emit('request', request, response),
      );
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const socket = request.socket;
        answering.set(socket, { request, response });
        response.once('close', () => {
          if (answering.get(socket)?.response !== response) return;
          answering.delete(socket);
          if (closeWhenAnswered.has(socket)) socket.end();
        });
      });
    },
    answer(error: Error & { code?: string }, socket: Socket): void {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'request headers are too large']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request timed out']
            : [400, 'malformed HTTP request'];
      log.warn(`refused a malformed HTTP request: ${status} ${error.code ?? 'unknown'}`);
      const current = answering.get(socket);
      if (current?.request.complete) {
        closeWhenAnswered.add(socket);
        return;
      }
      // Only when no response has started on the wire: otherwise an answer would corrupt it.
      if (socket.writable && !current?.response.headersSent) {
        const body = JSON.stringify({ error: message });
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  };
}
