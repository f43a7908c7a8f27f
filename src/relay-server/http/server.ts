/** The relay's HTTP server: limits, parsers, security headers and one error shape around every route. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { RouteContext } from './context.js';
import { ANSWER_LINK_PATH, registerAnswerLinkRoutes } from './answer-link-routes.js';
import { registerApiRoutes } from './api-routes.js';
import { registerAppRoutes } from './app-routes.js';
import { ASSETS } from './assets.js';
import { limitConnectionsPerAddress, MAX_CONNECTIONS_PER_ADDRESS } from './connection-limit.js';
import { sendError } from './errors.js';
import { registerEventRoutes } from './event-routes.js';
import { registerHealthRoutes } from './health-routes.js';
import { registerInboxRoutes } from './inbox-routes.js';
import { registerPageRoutes } from './page-routes.js';
import { PUSH_PATHS, registerPushRoutes } from './push-routes.js';
import { malformedRequests, type MalformedStatus } from '../../http/malformed-requests.js';
import { securityHeaders, securityHeadersOver } from './security.js';
import type { RelayLog } from '../relay-log.js';

export const MAX_BODY_BYTES = 65_536;
const MAX_FORM_BYTES = 8_192;

/** Paths with a route: any other method on them is 405, not 404. */
const API_PATHS = [
  '/.well-known/notify-relay',
  '/v1/pairings',
  '/v1/pairings/:id/poll',
  '/v1/installation',
  '/v1/notifications/:id',
  '/v1/notifications/:id/status',
  ANSWER_LINK_PATH,
  '/v1/events',
  ...PUSH_PATHS,
];

export interface ServerOptions {
  trustProxy: boolean;
  tls?: { cert: Buffer; key: Buffer };
  /** How long a client has to send a request's headers and body, in total. */
  requestTimeoutMs: number;
  log: RelayLog;
}

/** What a request Node's parser refused (bad framing, huge headers, too slow) is told, by status. */
const MALFORMED_DESCRIPTIONS: Record<MalformedStatus, string> = {
  400: 'The request is malformed.',
  408: 'The request did not arrive in time.',
  431: "The request's headers are too large.",
};

export function buildServer(context: RouteContext, options: ServerOptions): FastifyInstance {
  // A request that trickles in is closed (408) once its time is up, however many bytes it still sends;
  // the check runs every second so the limit holds within a second. Responses (event streams) are not timed.
  const timeouts = {
    requestTimeout: options.requestTimeoutMs,
    headersTimeout: options.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs),
  };
  // The relay's error shape and headers, not Fastify's default answer to what Node's parser refuses.
  const malformed = malformedRequests({
    answer: (status) => ({
      headers: {
        ...securityHeadersOver(options.tls !== undefined),
        'cache-control': 'no-store',
        'content-type': 'application/json; charset=utf-8',
      },
      body: JSON.stringify({ error: 'invalid_request', error_description: MALFORMED_DESCRIPTIONS[status] }),
    }),
  });
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    clientErrorHandler: (error, socket) => malformed.answer(error, socket),
    requestTimeout: options.requestTimeoutMs,
    // Only the nearest hop (our own proxy) is believed: a client cannot pick its address by sending X-Forwarded-For.
    trustProxy: options.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    // Ids in paths are at most 100 characters; nothing legitimate comes near this.
    routerOptions: { maxParamLength: 200 },
    // Bad percent-encoding or an over-long path segment: the relay's headers and error shape, not
    // Fastify's default answer, which echoes the URL (a setup or invitation link's token is in its query).
    frameworkErrors: (error, request, reply) => {
      reply.headers(securityHeaders(request));
      sendError(
        reply,
        'invalid_request',
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A part of the path is too long.'
          : 'The request is malformed.',
      );
    },
    ...(options.tls
      ? { https: { cert: options.tls.cert, key: options.tls.key, ...timeouts } }
      : { http: timeouts }),
  }) as unknown as FastifyInstance;
  malformed.track(app.server);
  // Behind our own proxy every connection comes from the proxy: there the proxy limits connections.
  if (!options.trustProxy) limitConnectionsPerAddress(app.server, MAX_CONNECTIONS_PER_ADDRESS);

  // JSON and forms only: a text/plain body is 415, not a string handed to the routes.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (a poll sent with a Content-Type) is no body, not malformed JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (request, body, done) => {
      // The protocol and the inbox API speak JSON only; forms are for the pages.
      if (request.url.startsWith('/v1/')) {
        done(Object.assign(new Error('form body on the API'), { statusCode: 415 }), undefined);
        return;
      }
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string))
        if (!(name in fields)) fields[name] = value;
      done(null, fields);
    },
  );

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(securityHeaders(request));
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    // Fastify's own errors (FST_ERR_CTP_BODY_TOO_LARGE, FST_ERR_CTP_INVALID_MEDIA_TYPE) carry these statuses too.
    if (error.statusCode === 413) {
      return sendError(
        reply,
        'payload_too_large',
        `The body is larger than the limit (${MAX_BODY_BYTES} bytes for JSON, ${MAX_FORM_BYTES} for forms).`,
      );
    }
    if (error.statusCode === 415) {
      return sendError(reply, 'unsupported_media_type', 'Send the body as application/json.');
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(
        reply,
        'invalid_request',
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The body is not valid JSON.'
          : 'The request is malformed.',
      );
    }
    // The error's text only: request bodies and headers (secrets) never reach the log.
    options.log.error(`${error.code ?? 'error'}: ${error.message}`);
    return sendError(reply, 'server_error', 'The relay failed; its log says why. Nothing was changed.');
  });

  app.setNotFoundHandler(async (_request, reply) => sendError(reply, 'not_found', 'No such route.'));

  app.get('/favicon.ico', async (_request, reply) =>
    reply.code(204).header('cache-control', 'max-age=86400').send(),
  );

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = ASSETS.get(request.params.name);
    if (!asset) return sendError(reply, 'not_found', 'No such asset.');
    return reply
      .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(asset.type)
      .send(asset.text);
  });

  registerHealthRoutes(app, context);
  registerApiRoutes(app, context);
  registerAnswerLinkRoutes(app, context);
  registerEventRoutes(app, context);
  registerInboxRoutes(app, context);
  registerPageRoutes(app, context);
  registerPushRoutes(app, context);
  registerAppRoutes(app, context);

  for (const url of API_PATHS) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      if (app.hasRoute({ method, url })) continue;
      app.route({
        method,
        url,
        handler: async (_request, reply) =>
          sendError(reply, 'method_not_allowed', 'This path does not take this method.'),
      });
    }
  }
  return app;
}
