import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Settings } from '../config/settings.js';
import { FailedRequestLog } from '../log/failed-requests.js';
import { truncate } from '../log/log-text.js';
import type { Logger } from '../log/logger.js';
import { createErrorHandler, failureOf, pathOf, sendError } from './errors.js';
import { agentScopeGuard } from './agent-auth.js';
import { createNotification } from './notification-routes.js';
import { receiveEvent } from './event-routes.js';
import { fastCreate, type FastCreateRoute } from './fast-create.js';
import {
  bearerGuard,
  declaredLengthGuard,
  hostAllowed,
  hostGuard,
  ownerTokenCheck,
  rateLimiter,
  rateLimitGuard,
} from './guards.js';
import type { Guard } from './guard.js';
import { installJsonBodyParser } from './json-body.js';
import { endJsonWithNewline } from './json-newline.js';
import { malformedRequests, type MalformedStatus } from './malformed-requests.js';
import { registerRoutes, routeTable, type RouteDeps } from './route-table.js';
import { setSecurityHeaders } from './security-headers.js';
import { registerWebPage } from './web-page.js';

const MAX_LOGGED_PATH_CHARACTERS = 300;
/** A body still arriving after this long is refused (Node answers 408). */
const REQUEST_TIMEOUT_MS = 30_000;

/** What a request Node's parser refused is told, by status. */
const MALFORMED_MESSAGES: Record<MalformedStatus, string> = {
  400: 'malformed HTTP request',
  408: 'request timed out',
  431: 'request headers are too large',
};

export interface HttpDeps extends RouteDeps {
  settings: () => Settings;
  log: Logger;
  clock: () => number;
}

function noFastifySchemas(): never {
  throw new Error(
    'routes carry no fastify schema: they validate in their handlers (src/http/route-table.ts)',
  );
}

/** The transport: guards in the order the spec implies, the JSON parser, routes, error mapping. */
export function buildHttpServer(deps: HttpDeps): FastifyInstance {
  const failedRequests = new FailedRequestLog(deps.log, deps.clock);
  const logFailureOf = (method: string, fullPath: string, status: number, reason: string) => {
    // The path is cut on its own, so a long one cannot push the status and reason out of the line.
    const path = truncate(fullPath, MAX_LOGGED_PATH_CHARACTERS);
    failedRequests.record(status, `${method} ${path} -> ${status} ${reason}`.trimEnd());
  };
  const logFailure = (request: FastifyRequest, status: number) =>
    logFailureOf(request.method, pathOf(request), status, failureOf(request) ?? '');
  const settings = deps.settings;
  const admit = rateLimiter(() => settings().rateLimitPerSecond, deps.clock);
  let closing = false;
  const fast = fastCreate({
    routes: new Map<string, FastCreateRoute>([
      ['/v1/notifications', createNotification(deps.notifications)],
      ['/v1/events', receiveEvent(deps.events)],
    ]),
    hostAllowed: hostAllowed(() => settings().port),
    isOwner: ownerTokenCheck(() => settings().authToken),
    admit,
    bodyLimit: () => settings().maxRequestBodyBytes,
    closing: () => closing,
    logFailure: logFailureOf,
    log: deps.log,
  });
  const malformed = malformedRequests({
    answer: (status) => ({
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: `${JSON.stringify({ error: MALFORMED_MESSAGES[status] })}\n`,
    }),
    refused: (status, code) =>
      failedRequests.record(status, `refused a malformed HTTP request: ${status} ${code}`),
  });
  const app = Fastify({
    logger: false,
    bodyLimit: Number.MAX_SAFE_INTEGER,
    forceCloseConnections: 'idle',
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Our own node:http server, so the two create routes can be answered before fastify (fast-create.ts).
    // With a serverFactory fastify sets none of the server's options: they are set in serveCreatesFirst.
    serverFactory: (handler) =>
      serveCreatesFirst((request, response) => {
        if (!fast(request, response)) handler(request, response);
      }),
    return503OnClosing: true,
    // Any id gets the spec's 404 "notification not found", not a route miss at fastify's 100 characters.
    routerOptions: { maxParamLength: 2048 },
    // A request without Host reaches the host guard (421 with the error shape), not Node's bare 400.
    http: { requireHostHeader: false },
    // Bad percent-encoding or an over-long id: the Host and token checks still come first, and the answer is
    // the spec's `{"error"}` shape without fastify's echo of the URL (its query can hold anything).
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(reply.raw);
      if (guardsAnswered(request, reply)) return logFailure(request, reply.statusCode);
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'the request path is not valid: "%" must be followed by two hexadecimal digits'
          : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? 'the request path is too long: a path segment may hold at most 2048 characters'
            : 'the request URL could not be parsed';
      sendError(request, reply, error.statusCode ?? 400, message);
      // The router's refusals skip the onResponse hook.
      logFailure(request, reply.statusCode);
    },
    clientErrorHandler: (error, socket) => malformed.answer(error, socket),
    // Routes validate in their handlers and carry no fastify schema, so fastify's ajv and
    // fast-json-stringify compilers are never needed: left unset, fastify loads both, and with them
    // ajv's hundred-odd modules, at every start. A route given a fastify schema fails at start instead.
    schemaController: {
      compilersFactory: { buildValidator: noFastifySchemas, buildSerializer: noFastifySchemas },
    },
  });
  malformed.track(app.server);
  const guards: Guard[] = [
    hostGuard(() => settings().port),
    declaredLengthGuard(() => settings().maxRequestBodyBytes),
    bearerGuard(() => settings().authToken, deps.web.sessions, deps.agentTokens),
    agentScopeGuard((id) => {
      const record = deps.notifications.find(id);
      return record === undefined ? undefined : (record.raisedBy ?? null);
    }),
    rateLimitGuard(() => settings().rateLimitPerSecond, deps.clock, admit),
  ];
  function guardsAnswered(request: FastifyRequest, reply: FastifyReply): boolean {
    for (const guard of guards) {
      if (guard(request, reply)) return true;
    }
    return false;
  }
  // Callback-style hooks: an async one costs a promise and a microtask turn on every request. A guard
  // that answers stops the chain by not calling done (fastify "Respond to a request from a hook").
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(reply.raw);
    if (!guardsAnswered(request, reply)) done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 400) logFailure(request, reply.statusCode);
    done();
  });
  // From here on every request goes to fastify, which answers 503 while closing.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    failedRequests.flush();
    done();
  });
  endJsonWithNewline(app);
  installJsonBodyParser(app, () => settings().maxRequestBodyBytes);
  app.setErrorHandler(createErrorHandler(deps.log));
  app.setNotFoundHandler((request, reply) =>
    // The log line names the path already; a second copy would double what a long path costs.
    sendError(
      request,
      reply,
      404,
      `no such endpoint: ${request.method} ${pathOf(request)}`,
      'no such endpoint',
    ),
  );
  registerRoutes(app, routeTable(deps));
  registerWebPage(app, { root: deps.web.root, sessions: deps.web.sessions });
  return app;
}

/** The server fastify would make: no Host needed (the host guard answers), fastify's default timeouts. */
function serveCreatesFirst(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer({ requireHostHeader: false }, handler);
  server.keepAliveTimeout = 72_000;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.setTimeout(0);
  return server;
}
