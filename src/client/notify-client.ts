import type {
  BasicHealth,
  CreateNotificationBody,
  HealthResponse,
  ListNotificationsQuery,
  NotificationDto,
  PresentationSettings,
  SettingsPatch,
  SoundEntry,
  SoundPreview,
  Status,
  TypeDefinitionBody,
  TypeEntry,
  TestToastResult,
  WaitingCount,
  FocusResult,
} from './api-types.js';
import { HttpError, UnexpectedResponseError } from './errors.js';
import { sendRequest, socketOf, type BrokerAddress, type RawResponse } from './transport.js';

/** Spec "Limits": every broker call of the client gives up after 10 seconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface NotifyClientOptions extends BrokerAddress {
  /** Sent as `Authorization: Bearer`; without it every /v1 call answers 401. */
  token?: string;
  timeoutMs?: number;
}

/**
 * The typed client of the broker's HTTP API. Non-2xx answers throw HttpError; failed connections
 * throw BrokerUnreachableError; a silent broker throws BrokerTimeoutError; another user's program on
 * the port throws ForeignListenerError, and nothing was sent to it (the transport checks every call).
 */
export class NotifyClient {
  readonly baseUrl: string;
  readonly #address: BrokerAddress;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: NotifyClientOptions) {
    this.baseUrl = options.baseUrl;
    this.#address = options;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  create(body: CreateNotificationBody): Promise<NotificationDto> {
    return this.#call('POST', '/v1/notifications', body);
  }

  list(query: ListNotificationsQuery = {}): Promise<NotificationDto[]> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size > 0 ? `?${params.toString()}` : '';
    return this.#call('GET', `/v1/notifications${search}`);
  }

  get(id: string): Promise<NotificationDto> {
    return this.#call('GET', notificationPath(id));
  }

  setStatus(id: string, status: Status): Promise<NotificationDto> {
    return this.#call('PATCH', notificationPath(id), { status });
  }

  dismiss(id: string): Promise<NotificationDto> {
    return this.#call('POST', `${notificationPath(id)}/dismiss`);
  }

  /** POST /v1/notifications/{id}/focus: takes the person to where its agent runs (docs/focus.md). */
  focus(id: string): Promise<FocusResult> {
    return this.#call('POST', `${notificationPath(id)}/focus`);
  }

  /** POST /v1/notifications/{id}/snooze: closes its toast and keeps it quiet for `minutes` (docs/attention.md). */
  snooze(id: string, minutes: number): Promise<NotificationDto> {
    return this.#call('POST', `${notificationPath(id)}/snooze`, { minutes });
  }

  /**
   * POST /v1/notifications/{id}/answer: the person's answer to the revision they saw (docs/answers.md);
   * the first one resolves, one to a revision the notification left behind is refused (409).
   */
  answer(
    id: string,
    action: string,
    revision: number,
    surface: 'cli' | 'web' | 'relay' = 'cli',
  ): Promise<NotificationDto> {
    return this.#call('POST', `${notificationPath(id)}/answer`, { action, surface, revision });
  }

  /**
   * GET /v1/notifications/{id}/answer?waitSeconds=N: the notification once it is answered, resolved or
   * dismissed, else as it is after N seconds (0-120). The client's timeoutMs must exceed N seconds.
   */
  awaitAnswer(id: string, waitSeconds: number): Promise<NotificationDto> {
    return this.#call('GET', `${notificationPath(id)}/answer?waitSeconds=${waitSeconds}`);
  }

  /** POST /v1/events: an ARC 0.1 envelope; answers with the Notification it created or changed. */
  sendEvent(envelope: object): Promise<NotificationDto> {
    return this.#call('POST', '/v1/events', envelope);
  }

  /** POST /v1/presentation/test: shows a sample toast on the broker's desktop. */
  testToast(): Promise<TestToastResult> {
    return this.#call('POST', '/v1/presentation/test');
  }

  /** GET /v1/presentation/waiting: the active notifications that need a person, by type. */
  waiting(): Promise<WaitingCount> {
    return this.#call('GET', '/v1/presentation/waiting');
  }

  /** GET /v1/health: needs the token. */
  health(): Promise<HealthResponse> {
    return this.#call('GET', '/v1/health');
  }

  /** GET /health: no token needed, tells only that the broker is alive. */
  liveness(): Promise<BasicHealth> {
    return this.#call('GET', '/health');
  }

  getSettings(): Promise<PresentationSettings> {
    return this.#call('GET', '/v1/settings');
  }

  updateSettings(patch: SettingsPatch): Promise<PresentationSettings> {
    return this.#call('PATCH', '/v1/settings', patch);
  }

  listTypes(): Promise<TypeEntry[]> {
    return this.#call('GET', '/v1/types');
  }

  /** Creates or replaces the whole definition of a type. */
  putType(id: string, definition: TypeDefinitionBody): Promise<TypeEntry> {
    return this.#call('PUT', `/v1/types/${encodeURIComponent(id)}`, definition);
  }

  removeType(id: string): Promise<TypeEntry> {
    return this.#call('DELETE', `/v1/types/${encodeURIComponent(id)}`);
  }

  listSounds(): Promise<SoundEntry[]> {
    return this.#call('GET', '/v1/sounds');
  }

  /** Uploads a .wav or .mp3 file's bytes under a name; the broker checks the content. */
  importSound(name: string, content: Buffer): Promise<SoundEntry> {
    return this.#call('PUT', soundPath(name), content);
  }

  previewSound(name: string): Promise<SoundPreview> {
    return this.#call('POST', `${soundPath(name)}/preview`);
  }

  removeSound(name: string): Promise<SoundEntry> {
    return this.#call('DELETE', soundPath(name));
  }

  /** Any route of the API, for commands whose routes have no typed method (yet); the same checks apply. */
  request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.#call(method, path, body);
  }

  /** A Buffer body is sent as raw bytes, anything else as JSON. */
  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#token !== undefined) headers['authorization'] = `Bearer ${this.#token}`;
    const raw = Buffer.isBuffer(body);
    if (body !== undefined) headers['content-type'] = raw ? 'application/octet-stream' : 'application/json';
    const response = await sendRequest({
      method,
      url: new URL(path, this.baseUrl),
      ...socketOf(this.#address),
      headers,
      timeoutMs: this.#timeoutMs,
      ...(body !== undefined && { body: raw ? body : JSON.stringify(body) }),
    });
    if (response.status < 200 || response.status > 299) throw toHttpError(response);
    // 204 No Content (a deletion) has nothing to parse.
    if (response.status === 204) return undefined as T;
    try {
      return JSON.parse(response.body) as T;
    } catch {
      throw new UnexpectedResponseError(
        `${method} ${path} answered ${response.status} with a body that is not JSON`,
      );
    }
  }
}

function soundPath(name: string): string {
  return `/v1/sounds/${encodeURIComponent(name)}`;
}

function notificationPath(id: string): string {
  return `/v1/notifications/${encodeURIComponent(id)}`;
}

/** Spec "Client command": the payload's error field, else the raw body, else `(empty response)`. */
export function toHttpError(response: RawResponse): HttpError {
  const raw = response.body.trim();
  let detail = raw === '' ? '(empty response)' : raw;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (typeof error === 'string') detail = error;
    }
  } catch {
    // Not JSON: the raw body is the most useful thing to show.
  }
  return new HttpError(response.status, response.statusText, detail);
}
