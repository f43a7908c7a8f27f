import Fastify, { type FastifyInstance } from 'fastify';
import type { Settings } from '../config/settings.js';
import type { Logger } from '../log/logger.js';
import { createErrorHandler, failureOf, pathOf, sendError } from './errors.js';
import { bearerGuard, declaredLengthGuard, hostGuard, rateLimitGuard, type Guard } from './guards.js';
import { installJsonBodyParser } from './json-body.js';
import { endJsonWithNewline } from './json-newline.js';
import { malformedRequests } from './malformed-requests.js';
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
    // Any id gets the spec's 404 "notification not found", not a route miss at fastify's 100 characters.
    routerOptions: { maxParamLength: 2048 },
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
  // Callback-style hooks: an async one costs a promise and a microtask turn on every request. A guard
  // that answers stops the chain by not calling done (fastify "Respond to a request from a hook").
  app.addHook('onRequest', (request, reply, done) => {
    for (const guard of guards) {
      if (guard(request, reply)) return;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 400) {
      const reason = failureOf(request) ?? '';
      deps.log.warn(`${request.method} ${pathOf(request)} -> ${reply.statusCode} ${reason}`.trimEnd());
    }
    done();
  });
  endJsonWithNewline(app);
  installJsonBodyParser(app, () => settings().maxRequestBodyBytes);
  app.setErrorHandler(createErrorHandler(deps.log));
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, `no such endpoint: ${request.method} ${pathOf(request)}`),
  );
  registerRoutes(app, routeTable(deps));
  return app;
}
