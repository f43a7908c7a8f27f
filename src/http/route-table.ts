import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { RouteEntry } from './route-entry.js';
import type { HealthDeps } from './health-routes.js';
import { HEALTH_SCHEMAS, healthHandlers } from './health-routes.js';
import { NOTIFICATION_SCHEMAS, notificationHandlers } from './notification-routes.js';
import { focusHandlers } from './focus-routes.js';
import type { FocusService } from '../broker/focus-service.js';
import { ANSWER_SCHEMAS, answerHandlers } from './answer-routes.js';
import type { NotificationService } from '../broker/notification-service.js';
import type { EventService } from '../broker/event-service.js';
import type { Outbound } from '../broker/outbound.js';
import type { SettingsAdmin } from '../broker/settings-admin.js';
import type { SoundAdmin } from '../broker/sound-admin.js';
import { EVENT_SCHEMAS, eventHandlers } from './event-routes.js';
import { PROVIDER_SCHEMAS, providerHandlers } from './provider-routes.js';
import { ROUTE_SCHEMAS, deliveryRouteHandlers } from './delivery-route-routes.js';
import { OUTBOX_SCHEMAS, outboxHandlers } from './outbox-routes.js';
import { OPENAPI_SCHEMA, openApiHandler } from './openapi.js';
import { STREAM_SCHEMAS, streamHandlers, type StreamDeps } from './stream-routes.js';
import { SETTINGS_ROUTE_SCHEMAS, settingsHandlers } from './settings-routes.js';
import { SOUND_IMPORT_BODY_LIMIT, SOUND_ROUTE_SCHEMAS, soundHandlers } from './sound-routes.js';
import { TYPE_ROUTE_SCHEMAS, typeHandlers } from './type-routes.js';
import { PRESENTATION_SCHEMAS, presentationHandlers, type PresentationDeps } from './presentation-routes.js';
import type { JsonSchema, RouteSchema } from './schema-kit.js';
import { WEB_SCHEMAS, webHandlers, type WebRouteDeps } from './web-routes.js';
import { TOKEN_SCHEMAS, tokenHandlers } from './token-routes.js';
import type { AgentTokens } from '../broker/agent-tokens.js';

export interface RouteDeps {
  notifications: NotificationService;
  events: EventService;
  outbound: Pick<Outbound, 'providers' | 'routes' | 'outbox'>;
  health: HealthDeps;
  stream: StreamDeps;
  settingsAdmin: SettingsAdmin;
  soundAdmin: SoundAdmin;
  presentation: PresentationDeps;
  web: WebRouteDeps;
  focus: FocusService;
  agentTokens: AgentTokens;
}

interface Shapes {
  params?: JsonSchema;
  querystring?: JsonSchema;
  body?: JsonSchema;
  response: Record<number, JsonSchema | null>;
}

/** A resource's shapes with the one-line summary the OpenAPI document shows. */
const described = (summary: string, shapes: Shapes): RouteSchema => ({ summary, ...shapes }) as RouteSchema;

/** Every endpoint of the broker, with its guards and schemas, in one place. */
export function routeTable(deps: RouteDeps): RouteEntry[] {
  const health = healthHandlers(deps.health);
  const notifications = notificationHandlers(deps.notifications);
  const events = eventHandlers(deps.events);
  const answers = answerHandlers(deps.notifications, deps.stream);
  const providers = providerHandlers(deps.outbound.providers);
  const routes = deliveryRouteHandlers(deps.outbound.routes);
  const outbox = outboxHandlers(deps.outbound.outbox);
  const stream = streamHandlers(deps.stream);
  const settings = settingsHandlers(deps.settingsAdmin);
  const types = typeHandlers(deps.settingsAdmin);
  const sounds = soundHandlers(deps.soundAdmin);
  const presentation = presentationHandlers(deps.presentation);
  const web = webHandlers(deps.web);
  const focus = focusHandlers(deps.focus);
  const tokens = tokenHandlers(deps.agentTokens);
  const route = (
    method: RouteEntry['method'],
    url: string,
    guards: {
      auth: boolean;
      credentials?: 'token' | 'session';
      rateLimited?: boolean;
      rawBodyLimit?: number;
      agent?: 'any' | 'own';
    },
    schema: RouteSchema,
    handler: unknown,
  ): RouteEntry => ({
    method,
    url,
    auth: guards.auth,
    ...(guards.credentials !== undefined && { credentials: guards.credentials }),
    rateLimited: guards.rateLimited ?? false,
    ...(guards.agent !== undefined && { agent: guards.agent }),
    ...(guards.rawBodyLimit !== undefined && { rawBodyLimit: guards.rawBodyLimit }),
    schema,
    handler: handler as RouteHandlerMethod,
  });
  const auth = { auth: true };
  const limited = { auth: true, rateLimited: true };
  // What an agent token may do (issue 33): raise, and follow what it raised.
  const agentAny = { auth: true, agent: 'any' as const };
  const agentOwn = { auth: true, agent: 'own' as const };
  const agentLimited = { ...limited, agent: 'any' as const };
  const agentOwnLimited = { ...limited, agent: 'own' as const };
  const ownerOnly = { auth: true, credentials: 'token' as const };
  const P = PROVIDER_SCHEMAS;
  const R = ROUTE_SCHEMAS;
  const O = OUTBOX_SCHEMAS;
  const N = NOTIFICATION_SCHEMAS;
  const S = SETTINGS_ROUTE_SCHEMAS;
  const T = TYPE_ROUTE_SCHEMAS;
  const SO = SOUND_ROUTE_SCHEMAS;
  const W = WEB_SCHEMAS;

  const table = [
    route('GET', '/health', { auth: false }, HEALTH_SCHEMAS.open, health.open),
    route('GET', '/v1/health', agentAny, HEALTH_SCHEMAS.detailed, health.detailed),
    route('POST', '/v1/notifications', agentLimited, N.create, notifications.create),
    route('GET', '/v1/notifications', agentAny, N.list, notifications.list),
    route('GET', '/v1/notifications/:id', agentOwn, N.get, notifications.get),
    route('PATCH', '/v1/notifications/:id', agentOwn, N.changeStatus, notifications.changeStatus),
    route('POST', '/v1/notifications/:id/dismiss', agentOwnLimited, N.dismiss, notifications.dismiss),
    route('POST', '/v1/notifications/:id/snooze', agentOwnLimited, N.snooze, notifications.snooze),
    route('POST', '/v1/notifications/:id/focus', limited, N.focus, focus.focus),
    route('POST', '/v1/notifications/:id/answer', limited, ANSWER_SCHEMAS.answer, answers.answer),
    route('GET', '/v1/notifications/:id/answer', agentOwn, ANSWER_SCHEMAS.wait, answers.wait),
    route('POST', '/v1/events', agentLimited, EVENT_SCHEMAS.receive, events.receive),
    route('GET', '/v1/stream', auth, STREAM_SCHEMAS.open, stream.open),
    route('GET', '/v1/settings', auth, described('Read the presentation settings', S.get), settings.get),
    route('PATCH', '/v1/settings', auth, described('Change presentation settings', S.patch), settings.patch),
    route('GET', '/v1/types', auth, described('List type definitions', T.list), types.list),
    route('PUT', '/v1/types/:id', auth, described('Create or replace a type definition', T.put), types.put),
    route('DELETE', '/v1/types/:id', auth, described('Delete a type definition', T.delete), types.remove),
    route('GET', '/v1/sounds', auth, described('List built-in and imported sounds', SO.list), sounds.list),
    route(
      'PUT',
      '/v1/sounds/:name',
      { auth: true, rawBodyLimit: SOUND_IMPORT_BODY_LIMIT },
      described('Import a .wav or .mp3 sound', SO.import),
      sounds.import,
    ),
    route(
      'DELETE',
      '/v1/sounds/:name',
      auth,
      described('Remove an imported sound', SO.delete),
      sounds.remove,
    ),
    route('POST', '/v1/sounds/:name/preview', limited, described('Play a sound', SO.preview), sounds.preview),
    route(
      'GET',
      '/v1/presentation',
      auth,
      described('Whether toasts, the tray icon and sounds work, and why not', PRESENTATION_SCHEMAS.status),
      presentation.status,
    ),
    route(
      'POST',
      '/v1/presentation/test',
      limited,
      described('Show a sample toast', PRESENTATION_SCHEMAS.testToast),
      presentation.testToast,
    ),
    route(
      'GET',
      '/v1/presentation/waiting',
      auth,
      described('Count what waits for a person', PRESENTATION_SCHEMAS.waiting),
      presentation.waiting,
    ),
    route('GET', '/v1/provider-kinds', auth, P.kinds, providers.kinds),
    route('GET', '/v1/providers', auth, P.list, providers.list),
    route('POST', '/v1/providers', auth, P.create, providers.create),
    route('GET', '/v1/providers/:id', auth, P.get, providers.get),
    route('PATCH', '/v1/providers/:id', auth, P.update, providers.update),
    route('DELETE', '/v1/providers/:id', auth, P.remove, providers.remove),
    route('POST', '/v1/providers/:id/enable', auth, P.enable, providers.enable),
    route('POST', '/v1/providers/:id/disable', auth, P.disable, providers.disable),
    route('POST', '/v1/providers/:id/test', auth, P.test, providers.test),
    route('GET', '/v1/providers/:id/connection', auth, P.connection, providers.connection),
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
    route('POST', '/v1/web/login-codes', { auth: true, credentials: 'token' }, W.loginCode, web.loginCode),
    route('GET', '/v1/web/session', { auth: true, credentials: 'session' }, W.session, web.session),
    route('GET', '/v1/web/sessions', auth, W.sessions, web.sessions),
    route('DELETE', '/v1/web/sessions', auth, W.revokeAll, web.revokeAll),
    route('DELETE', '/v1/web/sessions/:id', auth, W.revoke, web.revoke),
    route('POST', '/v1/web/logout', { auth: true, credentials: 'session' }, W.logout, web.logout),
    route('GET', '/v1/tokens', ownerOnly, TOKEN_SCHEMAS.list, tokens.list),
    route('POST', '/v1/tokens', ownerOnly, TOKEN_SCHEMAS.create, tokens.create),
    route('DELETE', '/v1/tokens/:name', ownerOnly, TOKEN_SCHEMAS.revoke, tokens.revoke),
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
  for (const { method, url, auth, credentials, rateLimited, rawBodyLimit, agent, handler } of routes) {
    app.route({ method, url, handler, config: { auth, credentials, rateLimited, rawBodyLimit, agent } });
  }
}
