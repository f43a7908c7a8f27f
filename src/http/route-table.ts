import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { HealthDeps } from './health-routes.js';
import { healthHandlers } from './health-routes.js';
import { notificationHandlers } from './notification-routes.js';
import type { NotificationService } from '../broker/notification-service.js';
import type { EventService } from '../broker/event-service.js';
import { eventHandlers } from './event-routes.js';
import { presentationHandlers, type PresentationDeps } from './presentation-routes.js';

export interface RouteDeps {
  notifications: NotificationService;
  events: EventService;
  health: HealthDeps;
  presentation: PresentationDeps;
}

interface RouteEntry {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  auth: boolean;
  rateLimited: boolean;
  handler: RouteHandlerMethod;
}

/** Every endpoint of the broker, with its guards, in one place. */
export function routeTable(deps: RouteDeps): RouteEntry[] {
  const health = healthHandlers(deps.health);
  const notifications = notificationHandlers(deps.notifications);
  const events = eventHandlers(deps.events);
  const presentation = presentationHandlers(deps.presentation);
  const route = (
    method: RouteEntry['method'],
    url: string,
    guards: { auth: boolean; rateLimited?: boolean },
    handler: unknown,
  ): RouteEntry => ({
    method,
    url,
    auth: guards.auth,
    rateLimited: guards.rateLimited ?? false,
    handler: handler as RouteHandlerMethod,
  });

  return [
    route('GET', '/health', { auth: false }, health.open),
    route('GET', '/v1/health', { auth: true }, health.detailed),
    route('POST', '/v1/notifications', { auth: true, rateLimited: true }, notifications.create),
    route('GET', '/v1/notifications', { auth: true }, notifications.list),
    route('GET', '/v1/notifications/:id', { auth: true }, notifications.get),
    route('PATCH', '/v1/notifications/:id', { auth: true }, notifications.changeStatus),
    route('POST', '/v1/notifications/:id/dismiss', { auth: true, rateLimited: true }, notifications.dismiss),
    route('POST', '/v1/events', { auth: true, rateLimited: true }, events.receive),
    route('POST', '/v1/presentation/test', { auth: true, rateLimited: true }, presentation.testToast),
  ];
}

export function registerRoutes(app: FastifyInstance, routes: RouteEntry[]): void {
  for (const { method, url, auth, rateLimited, handler } of routes) {
    app.route({ method, url, handler, config: { auth, rateLimited } });
  }
}
