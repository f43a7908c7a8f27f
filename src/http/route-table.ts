import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { HealthDeps } from './health-routes.js';
import { HEALTH_SCHEMAS, healthHandlers } from './health-routes.js';
import { NOTIFICATION_SCHEMAS, notificationHandlers } from './notification-routes.js';
import type { NotificationService } from '../broker/notification-service.js';
import type { EventService } from '../broker/event-service.js';
import type { Outbound } from '../broker/outbound.js';
import { EVENT_SCHEMAS, eventHandlers } from './event-routes.js';
import { PROVIDER_SCHEMAS, providerHandlers } from './provider-routes.js';
import { ROUTE_SCHEMAS, deliveryRouteHandlers } from './delivery-route-routes.js';
import { OUTBOX_SCHEMAS, outboxHandlers } from './outbox-routes.js';
import { OPENAPI_SCHEMA, openApiHandler } from './openapi.js';
import type { RouteSchema } from './schema-kit.js';

export interface RouteDeps {
  notifications: NotificationService;
  events: EventService;
  outbound: Pick<Outbound, 'providers' | 'routes' | 'outbox'>;
  health: HealthDeps;
}

export interface RouteEntry {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  auth: boolean;
  rateLimited: boolean;
  /** Request and response JSON Schemas: they document the API (GET /v1/openapi.json). */
  schema: RouteSchema;
  handler: RouteHandlerMethod;
}

/** Every endpoint of the broker, with its guards and schemas, in one place. */
export function routeTable(deps: RouteDeps): RouteEntry[] {
  const health = healthHandlers(deps.health);
  const notifications = notificationHandlers(deps.notifications);
  const events = eventHandlers(deps.events);
  const providers = providerHandlers(deps.outbound.providers);
  const routes = deliveryRouteHandlers(deps.outbound.routes);
  const outbox = outboxHandlers(deps.outbound.outbox);
  const route = (
    method: RouteEntry['method'],
    url: string,
    guards: { auth: boolean; rateLimited?: boolean },
    schema: RouteSchema,
    handler: unknown,
  ): RouteEntry => ({
    method,
    url,
    auth: guards.auth,
    rateLimited: guards.rateLimited ?? false,
    schema,
    handler: handler as RouteHandlerMethod,
  });
  const auth = { auth: true };
  const limited = { auth: true, rateLimited: true };
  const P = PROVIDER_SCHEMAS;
  const R = ROUTE_SCHEMAS;
  const O = OUTBOX_SCHEMAS;
  const N = NOTIFICATION_SCHEMAS;

  const table = [
    route('GET', '/health', { auth: false }, HEALTH_SCHEMAS.open, health.open),
    route('GET', '/v1/health', auth, HEALTH_SCHEMAS.detailed, health.detailed),
    route('POST', '/v1/notifications', limited, N.create, notifications.create),
    route('GET', '/v1/notifications', auth, N.list, notifications.list),
    route('GET', '/v1/notifications/:id', auth, N.get, notifications.get),
    route('PATCH', '/v1/notifications/:id', auth, N.changeStatus, notifications.changeStatus),
    route('POST', '/v1/notifications/:id/dismiss', limited, N.dismiss, notifications.dismiss),
    route('POST', '/v1/events', limited, EVENT_SCHEMAS.receive, events.receive),
    route('GET', '/v1/provider-kinds', auth, P.kinds, providers.kinds),
    route('GET', '/v1/providers', auth, P.list, providers.list),
    route('POST', '/v1/providers', auth, P.create, providers.create),
    route('GET', '/v1/providers/:id', auth, P.get, providers.get),
    route('PATCH', '/v1/providers/:id', auth, P.update, providers.update),
    route('DELETE', '/v1/providers/:id', auth, P.remove, providers.remove),
    route('POST', '/v1/providers/:id/enable', auth, P.enable, providers.enable),
    route('POST', '/v1/providers/:id/disable', auth, P.disable, providers.disable),
    route('POST', '/v1/providers/:id/test', auth, P.test, providers.test),
    route('GET', '/v1/routes', auth, R.list, routes.list),
    route('POST', '/v1/routes', auth, R.create, routes.create),
    route('GET', '/v1/routes/:id', auth, R.get, routes.get),
    route('PATCH', '/v1/routes/:id', auth, R.update, routes.update),
    route('DELETE', '/v1/routes/:id', auth, R.remove, routes.remove),
    route('POST', '/v1/routes/:id/enable', auth, R.enable, routes.enable),
    route('POST', '/v1/routes/:id/disable', auth, R.disable, routes.disable),
    route('GET', '/v1/outbox', auth, O.list, outbox.list),
    route('GET', '/v1/outbox/counts', auth, O.counts, outbox.counts),
    route('POST', '/v1/outbox/:id/retry', auth, O.retry, outbox.retry),
    route('POST', '/v1/outbox/purge-delivered', auth, O.purge, outbox.purge),
  ];
  table.push(
    route(
      'GET',
      '/v1/openapi.json',
      auth,
      OPENAPI_SCHEMA,
      openApiHandler(() => table),
    ),
  );
  return table;
}

export function registerRoutes(app: FastifyInstance, routes: RouteEntry[]): void {
  for (const { method, url, auth, rateLimited, handler } of routes) {
    app.route({ method, url, handler, config: { auth, rateLimited } });
  }
}
