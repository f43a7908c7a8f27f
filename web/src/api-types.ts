/**
 * The API's shapes as the page sees them, imported from the declarations the broker itself uses: a
 * field renamed there breaks the page's build (tsc -p web) instead of a page that silently shows blanks.
 * Type-only imports: esbuild drops them, so no server code reaches the browser.
 */
import type { OutboxItemView } from '../../src/broker/outbox-service.js';
import type { ProviderView } from '../../src/broker/provider-service.js';
import type { RouteView } from '../../src/broker/route-service.js';
import type { WebSessionView } from '../../src/broker/web-sessions.js';
import type {
  FocusResult,
  NotificationDto,
  PresentationSettings,
  Priority,
  SettingsPatch,
  SoundEntry,
  SoundPreview,
  Status,
  TypeDefinitionBody,
  TypeEntry,
} from '../../src/client/api-types.js';
import type { ProviderKind, SettingDeclaration } from '../../src/delivery/provider.js';
import type { TestOutcome } from '../../src/delivery/test-action.js';
import type { Surface } from '../../src/domain/answers.js';

export type {
  FocusResult,
  NotificationDto,
  OutboxItemView,
  PresentationSettings,
  Priority,
  ProviderView,
  RouteView,
  SettingsPatch,
  SoundEntry,
  SoundPreview,
  Status,
  Surface,
  TestOutcome,
  TypeDefinitionBody,
  TypeEntry,
};

/** A declared setting as GET /v1/provider-kinds sends it (the validation functions stay on the broker). */
export type SettingOnWire = Omit<SettingDeclaration, 'problem' | 'credentialsIn'>;

/** One entry of GET /v1/provider-kinds (providerHandlers.kinds picks these fields). */
export type ProviderKindOnWire = Pick<ProviderKind, 'id' | 'title' | 'description' | 'lifecycle'> & {
  settings: SettingOnWire[];
};

/** Body of POST /v1/providers and PATCH /v1/providers/{id}: a secret sent as null is cleared. */
export interface ProviderInput {
  kind?: string;
  name?: string;
  settings?: Record<string, string | number | boolean | null>;
  enabled?: boolean;
}

/** Body of POST /v1/routes and PATCH /v1/routes/{id}. */
export type RouteInput = Partial<Omit<RouteView, 'id' | 'createdAt' | 'updatedAt'>>;

/** Query of GET /v1/notifications as the history page asks it. */
export interface HistoryQuery {
  q?: string;
  status?: Status;
  type?: string;
  agent?: string;
  project?: string;
  limit?: number;
  /** The previous page's cursor; absent for the first page. */
  before?: string;
}

export interface HistoryPage {
  items: NotificationDto[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/** GET /v1/web/session: the page's own session (webHandlers.session). */
export type WebSession = Omit<WebSessionView, 'lastSeenAt' | 'userAgent'>;

/** One entry of GET /v1/web/sessions (webHandlers.sessions). */
export type WebSessionEntry = Omit<WebSessionView, 'idleExpiresAt'> & { current: boolean };

export type OutboxCounts = Record<OutboxItemView['state'], number>;
