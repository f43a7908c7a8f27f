import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { HealthDeps } from './health-routes.js';
import { healthHandlers } from './health-routes.js';
import { notificationHandlers } from './notification-routes.js';
import type { NotificationService } from '../broker/notification-service.js';
import type { EventService } from '../broker/event-service.js';
import { eventHandlers } from './event-routes.js';
import { streamHandlers, type StreamDeps } from './stream-routes.js';
import type { SettingsAdmin } from '../broker/settings-admin.js';
import type { SoundAdmin } from '../broker/sound-admin.js';
import { settingsHandlers } from './settings-routes.js';
import { SOUND_IMPORT_BODY_LIMIT, soundHandlers } from './sound-routes.js';
import { typeHandlers } from './type-routes.js';
import { presentationHandlers, type PresentationDeps } from './presentation-routes.js';

export interface RouteDeps {
  notifications: NotificationService;
  events: EventService;
  health: HealthDeps;
  stream: StreamDeps;
  settingsAdmin: SettingsAdmin;
  soundAdmin: SoundAdmin;
  presentation: PresentationDeps;
}

interface RouteEntry {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  auth: boolean;
  rateLimited: boolean;
  /** The body is the raw bytes (not JSON), up to this size instead of maxRequestBodyBytes. */
  rawBodyLimit?: number;
  handler: RouteHandlerMethod;
}

/** Every endpoint of the broker, with its guards, in one place. */
export function routeTable(deps: RouteDeps): RouteEntry[] {
  const health = healthHandlers(deps.health);
  const notifications = notificationHandlers(deps.notifications);
  const events = eventHandlers(deps.events);
  const stream = streamHandlers(deps.stream);
  const settings = settingsHandlers(deps.settingsAdmin);
  const types = typeHandlers(deps.settingsAdmin);
  const sounds = soundHandlers(deps.soundAdmin);
  const presentation = presentationHandlers(deps.presentation);
  const route = (
    method: RouteEntry['method'],
    url: string,
    guards: { auth: boolean; rateLimited?: boolean; rawBodyLimit?: number },
    handler: unknown,
  ): RouteEntry => ({
    method,
    url,
    auth: guards.auth,
    rateLimited: guards.rateLimited ?? false,
    ...(guards.rawBodyLimit !== undefined && { rawBodyLimit: guards.rawBodyLimit }),
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
    route('GET', '/v1/stream', { auth: true }, stream.open),
    route('GET', '/v1/settings', { auth: true }, settings.get),
    route('PATCH', '/v1/settings', { auth: true }, settings.patch),
    route('GET', '/v1/types', { auth: true }, types.list),
    route('PUT', '/v1/types/:id', { auth: true }, types.put),
    route('DELETE', '/v1/types/:id', { auth: true }, types.remove),
    route('GET', '/v1/sounds', { auth: true }, sounds.list),
    route('PUT', '/v1/sounds/:name', { auth: true, rawBodyLimit: SOUND_IMPORT_BODY_LIMIT }, sounds.import),
    route('DELETE', '/v1/sounds/:name', { auth: true }, sounds.remove),
    route('POST', '/v1/sounds/:name/preview', { auth: true, rateLimited: true }, sounds.preview),
    route('POST', '/v1/presentation/test', { auth: true, rateLimited: true }, presentation.testToast),
  ];
}

export function registerRoutes(app: FastifyInstance, routes: RouteEntry[]): void {
  for (const { method, url, auth, rateLimited, rawBodyLimit, handler } of routes) {
    app.route({ method, url, handler, config: { auth, rateLimited, rawBodyLimit } });
  }
}
