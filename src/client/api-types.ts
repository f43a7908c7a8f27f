import type { NotificationDto, Status } from '../domain/notification.js';
import type { Origin } from '../domain/origin.js';
import type { Priority } from '../domain/priority.js';

export type { NotificationDto, Status, Priority };

/** Body of POST /v1/notifications (spec "POST /v1/notifications"). */
export interface CreateNotificationBody {
  title: string;
  message: string;
  type?: string;
  priority?: Priority;
  agent?: string;
  agentInstance?: string;
  project?: string;
  key?: string;
  cwd?: string;
  pid?: number;
  metadata?: Record<string, unknown>;
  /** 1 to 3 choices for the person (docs/answers.md). */
  actions?: { id: string; label: string }[];
  /** Where the agent runs, innermost first (docs/focus.md). */
  origin?: Origin;
}

/** POST /v1/notifications/{id}/focus: the kind of place focused, and the outer window raised after it. */
export interface FocusResult {
  focused: true;
  how: string;
  outer?: string;
}

/** Query of GET /v1/notifications; absent fields are not sent. */
export interface ListNotificationsQuery {
  unresolved?: boolean;
  type?: string;
  status?: Status;
  project?: string;
  agent?: string;
  key?: string;
  limit?: number;
}

/** GET /health, the unauthenticated liveness answer. */
export interface BasicHealth {
  status: string;
}

/** GET /v1/health (spec "HealthResponse"). */
export interface HealthResponse extends BasicHealth {
  version: string;
  pid: number;
  uptimeSeconds: number;
  activeCount: number;
  apiVersion: string;
  serverTimeUtc: string;
}

/** GET /v1/settings: the presentation settings (docs/api.md "Settings"). */
export interface PresentationSettings {
  pauseNotifications: boolean;
  soundsEnabled: boolean;
  doNotDisturb: boolean;
  playCriticalSoundsDuringDoNotDisturb: boolean;
  maxVisibleToasts: number;
  soundsByPriority: Record<Priority, string>;
  /** null: no quiet hours. */
  quietHours: QuietHoursSetting | null;
  /** A request whose own place has your focus waits focusGraceSeconds before toast and sound. */
  quietWhileFocused: boolean;
  /** 0-3600. */
  focusGraceSeconds: number;
}

/** Local-time windows without toasts and sounds below `minimumPriority` (docs/attention.md). */
export interface QuietHoursSetting {
  windows: { from: string; to: string; days?: string[] }[];
  minimumPriority?: Priority;
  timeZone?: string;
}

/** PATCH /v1/settings: a JSON merge patch; `null` restores a default. */
export type SettingsPatch = {
  [Field in Exclude<keyof PresentationSettings, 'soundsByPriority'>]?: PresentationSettings[Field] | null;
} & { soundsByPriority?: Partial<Record<Priority, string | null>> | null };

/** Body of PUT /v1/types/{id}; every field optional, `enabled` defaults to true. */
export interface TypeDefinitionBody {
  enabled?: boolean;
  defaultPriority?: Priority;
  lifetimeSeconds?: number;
  icon?: string;
  sound?: string;
  /** Counts as waiting and alerts again when an update turns a notification into it. */
  needsPerson?: boolean;
  /** News resolves itself after this many unchanged minutes; 0 = never. */
  resolveAfterMinutes?: number;
  /** An unresolved notification alerts again after this many minutes; 0 = never. */
  remindEveryMinutes?: number;
  /** How many reminders at most; 0 = none. */
  remindTimes?: number;
}

/** One entry of GET /v1/types; hand-written fields of config.json come along as they are. */
export interface TypeEntry extends TypeDefinitionBody {
  id: string;
  builtin: boolean;
  enabled: boolean;
  [other: string]: unknown;
}

/** One entry of GET /v1/sounds. */
export interface SoundEntry {
  name: string;
  kind: 'builtin' | 'imported';
  format: 'wav' | 'mp3';
  bytes: number;
}

/** POST /v1/sounds/{name}/preview: which player is playing it. */
export interface SoundPreview {
  name: string;
  player: string;
}

/** POST /v1/presentation/test: the notification server that showed the sample toast, and its id there. */
/** GET /v1/presentation/waiting. */
export interface WaitingCount {
  waiting: number;
  byType: Record<string, number>;
}

export interface TestToastResult {
  shown: true;
  server: string;
  toastId: number;
}
