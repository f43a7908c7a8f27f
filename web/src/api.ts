/**
 * The page's one seam to the broker: where the API lives and how requests prove who sends them. The
 * broker's own page sends its session (`Authorization: Session`, kept by page-session.ts); another
 * host may pass its base and a bearer token, and every component works unchanged. The relay's inbox,
 * which is not a broker, gives the inbox components the same calls through its own adapter
 * (parts/inbox-api.ts).
 */
import { createParser } from 'eventsource-parser';
import type {
  FocusResult,
  HistoryPage,
  HistoryQuery,
  NotificationDto,
  OutboxCounts,
  OutboxItemView,
  PresentationSettings,
  ProviderInput,
  ProviderKindOnWire,
  ProviderView,
  RouteInput,
  RouteView,
  SettingsPatch,
  SoundEntry,
  SoundPreview,
  Status,
  TestOutcome,
  TypeDefinitionBody,
  TypeEntry,
  WebSession,
  WebSessionEntry,
} from './api-types.js';

/** Holds the web page's session secret; the API sends it on every request and forgets an ended one. */
export interface SessionKeeper {
  secret(): string | undefined;
  /** Drops this secret, unless another sign-in has replaced it meanwhile. */
  forget(secret: string): void;
}

export type Auth = { session: SessionKeeper } | { bearer: string };

export interface ApiOptions {
  /** Origin (and path prefix) of the broker's API; '' for the page's own origin. */
  base: string;
  auth: Auth;
}

/** A refused request, with the broker's one-sentence `error`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The stream's event names (docs/api.md "GET /v1/stream") and `reset`. */
export type ChangeName =
  | 'notification.created'
  | 'notification.updated'
  | 'notification.answered'
  | 'notification.resolved'
  | 'notification.dismissed'
  | 'notification.reopened'
  | 'reset';

export type ChangeListener = (name: ChangeName, notification: NotificationDto | undefined) => void;

const CHANGE_NAMES: readonly ChangeName[] = [
  'notification.created',
  'notification.updated',
  'notification.answered',
  'notification.resolved',
  'notification.dismissed',
  'notification.reopened',
  'reset',
];

const RECONNECT_MS = 2000;

/**
 * The stream's `batch` (docs/api.md): changes that follow one another within this long arrive together,
 * and a flood as one `reset`, so the page draws a few times a second however fast agents write.
 */
const STREAM = '/v1/stream?batch=1000';

type Body = unknown;

export function createApi({ base, auth }: ApiOptions) {
  /** Read per request: another tab may have signed in again since. */
  const authorization = (): string | undefined => {
    if ('bearer' in auth) return `Bearer ${auth.bearer}`;
    const secret = auth.session.secret();
    return secret === undefined ? undefined : `Session ${secret}`;
  };

  async function send(method: string, path: string, body?: Body, raw?: Blob): Promise<Response> {
    const headers: Record<string, string> = {};
    const credential = authorization();
    if (credential !== undefined) headers['authorization'] = credential;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (raw !== undefined) headers['content-type'] = 'application/octet-stream';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      // Nothing rides on cookies: the broker ignores them.
      credentials: 'omit',
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(raw !== undefined && { body: raw }),
    });
    if (!response.ok) throw new ApiError(response.status, await errorOf(response));
    return response;
  }

  async function json<T>(method: string, path: string, body?: Body): Promise<T> {
    return (await (await send(method, path, body)).json()) as T;
  }

  /** Ends this page's session in this browser, whatever the broker answers. */
  const signedOut = (secret: string | undefined) => {
    if (secret !== undefined && 'session' in auth) auth.session.forget(secret);
  };

  async function session(): Promise<WebSession> {
    const secret = 'session' in auth ? auth.session.secret() : undefined;
    if ('session' in auth && secret === undefined) throw new ApiError(401, 'unauthorized');
    try {
      return await json<WebSession>('GET', '/v1/web/session');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) signedOut(secret);
      throw failure;
    }
  }

  async function logout(): Promise<void> {
    const secret = 'session' in auth ? auth.session.secret() : undefined;
    try {
      await send('POST', '/v1/web/logout');
    } catch (failure) {
      // Already ended (revoked, expired): signed out all the same.
      if (!(failure instanceof ApiError && failure.status === 401)) throw failure;
    } finally {
      signedOut(secret);
    }
  }

  const id = encodeURIComponent;

  return {
    /** The page's own session; ApiError 401 when there is none (and an ended one is forgotten). */
    session,
    sessions: async () => (await json<{ sessions: WebSessionEntry[] }>('GET', '/v1/web/sessions')).sessions,
    revokeSession: (sessionId: string) => send('DELETE', `/v1/web/sessions/${id(sessionId)}`),
    logout,

    active: (limit = 100) => json<NotificationDto[]>('GET', `/v1/notifications?status=active&limit=${limit}`),
    recent: (limit: number) => json<NotificationDto[]>('GET', `/v1/notifications?limit=${limit}`),
    history: async (query: HistoryQuery): Promise<HistoryPage> => {
      // The first page asks for cursor paging with page=1; the next ones name the cursor instead.
      const params = new URLSearchParams(query.before === undefined ? { page: '1' } : {});
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined && value !== '') params.set(name, String(value));
      }
      const response = await send('GET', `/v1/notifications?${params}`);
      const nextCursor = response.headers.get('x-next-cursor') ?? undefined;
      return { items: (await response.json()) as NotificationDto[], ...(nextCursor && { nextCursor }) };
    },
    notification: (notificationId: string) =>
      json<NotificationDto>('GET', `/v1/notifications/${id(notificationId)}`),
    setStatus: (notificationId: string, status: Status) =>
      json<NotificationDto>('PATCH', `/v1/notifications/${id(notificationId)}`, { status }),
    dismiss: (notificationId: string) =>
      json<NotificationDto>('POST', `/v1/notifications/${id(notificationId)}/dismiss`),
    /** Takes the person to where the agent runs (docs/focus.md); 409 says why not. */
    focus: (notificationId: string) =>
      json<FocusResult>('POST', `/v1/notifications/${id(notificationId)}/focus`),
    snooze: (notificationId: string, minutes: number) =>
      json<NotificationDto>('POST', `/v1/notifications/${id(notificationId)}/snooze`, { minutes }),
    /** The person's answer to the revision the page showed them: a later one refuses it (409). */
    answer: (notificationId: string, action: string, revision: number) =>
      json<NotificationDto>('POST', `/v1/notifications/${id(notificationId)}/answer`, {
        action,
        surface: 'web',
        revision,
      }),

    /** Follows every change; returns the function that stops following. */
    follow: (listener: ChangeListener): (() => void) => followWithFetch(base, authorization, listener),

    settings: () => json<PresentationSettings>('GET', '/v1/settings'),
    changeSettings: (patch: SettingsPatch) => json<PresentationSettings>('PATCH', '/v1/settings', patch),

    types: () => json<TypeEntry[]>('GET', '/v1/types'),
    putType: (typeId: string, body: TypeDefinitionBody) =>
      json<TypeEntry>('PUT', `/v1/types/${id(typeId)}`, body),
    deleteType: (typeId: string) => send('DELETE', `/v1/types/${id(typeId)}`),

    sounds: () => json<SoundEntry[]>('GET', '/v1/sounds'),
    playSound: (name: string) => json<SoundPreview>('POST', `/v1/sounds/${id(name)}/preview`),
    importSound: async (name: string, file: Blob) =>
      (await (await send('PUT', `/v1/sounds/${id(name)}`, undefined, file)).json()) as SoundEntry,
    deleteSound: (name: string) => json<SoundEntry>('DELETE', `/v1/sounds/${id(name)}`),

    providerKinds: () => json<ProviderKindOnWire[]>('GET', '/v1/provider-kinds'),
    providers: () => json<ProviderView[]>('GET', '/v1/providers'),
    createProvider: (input: ProviderInput) => json<ProviderView>('POST', '/v1/providers', input),
    updateProvider: (providerId: string, input: ProviderInput) =>
      json<ProviderView>('PATCH', `/v1/providers/${id(providerId)}`, input),
    setProviderEnabled: (providerId: string, enabled: boolean) =>
      json<ProviderView>('POST', `/v1/providers/${id(providerId)}/${enabled ? 'enable' : 'disable'}`),
    deleteProvider: (providerId: string) => send('DELETE', `/v1/providers/${id(providerId)}`),
    testProvider: (providerId: string) => json<TestOutcome>('POST', `/v1/providers/${id(providerId)}/test`),

    routes: () => json<RouteView[]>('GET', '/v1/routes'),
    createRoute: (input: RouteInput) => json<RouteView>('POST', '/v1/routes', input),
    updateRoute: (routeId: string, input: RouteInput) =>
      json<RouteView>('PATCH', `/v1/routes/${id(routeId)}`, input),
    setRouteEnabled: (routeId: string, enabled: boolean) =>
      json<RouteView>('POST', `/v1/routes/${id(routeId)}/${enabled ? 'enable' : 'disable'}`),
    deleteRoute: (routeId: string) => send('DELETE', `/v1/routes/${id(routeId)}`),

    outbox: (state: OutboxItemView['state'] | undefined, limit = 100) =>
      json<OutboxItemView[]>('GET', `/v1/outbox?limit=${limit}${state ? `&state=${state}` : ''}`),
    deliveries: (notificationId: string) =>
      json<OutboxItemView[]>('GET', `/v1/outbox?notificationId=${id(notificationId)}`),
    outboxCounts: () => json<OutboxCounts>('GET', '/v1/outbox/counts'),
    retry: (itemId: number) => json<OutboxItemView>('POST', `/v1/outbox/${itemId}/retry`),
    purgeDelivered: () => json<{ purged: number }>('POST', '/v1/outbox/purge-delivered'),
  };
}

export type Api = ReturnType<typeof createApi>;

async function errorOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON: the status line is all there is to say.
  }
  return `the broker answered ${response.status} ${response.statusText}`.trim();
}

function deliver(listener: ChangeListener, name: string | undefined, data: string): void {
  const change = CHANGE_NAMES.find((known) => known === name);
  if (change === undefined) return;
  listener(change, change === 'reset' ? undefined : (JSON.parse(data) as NotificationDto));
}

/**
 * EventSource cannot send an Authorization header, so the stream is read with fetch, resuming with
 * Last-Event-ID as EventSource would. A 401 ends it for good, as it ends an EventSource: the session
 * or token is no longer valid.
 */
function followWithFetch(
  base: string,
  authorization: () => string | undefined,
  listener: ChangeListener,
): () => void {
  const abort = new AbortController();
  let lastEventId = '';
  const parser = createParser({
    onEvent: (event) => {
      if (event.id) lastEventId = event.id;
      deliver(listener, event.event, event.data);
    },
  });
  const connect = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const credential = authorization();
        const response = await fetch(`${base}${STREAM}`, {
          headers: {
            ...(credential !== undefined && { authorization: credential }),
            ...(lastEventId && { 'last-event-id': lastEventId }),
          },
          credentials: 'omit',
          signal: abort.signal,
        });
        if (response.status === 401) return;
        if (response.ok) {
          // Not resuming: what changed before the broker took this stream's subscription comes with a
          // fresh list, as a `reset` asks (the broker subscribes before the first byte it sends).
          if (!lastEventId) listener('reset', undefined);
          const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
          parser.reset();
          for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
            parser.feed(chunk.value);
          }
        }
      } catch {
        // A dropped connection: try again after the same pause EventSource would take.
      }
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  };
  void connect();
  return () => abort.abort();
}
