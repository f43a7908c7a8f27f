import type { NotificationDto, Status } from '../domain/notification.js';
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
}

/** Query of GET /v1/notifications; absent fields are not sent. */
export interface ListNotificationsQuery {
  unresolved?: boolean;
  type?: string;
  status?: Status;
  project?: string;
  agent?: string;
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

/** POST /v1/presentation/test: the notification server that showed the sample toast, and its id there. */
export interface TestToastResult {
  shown: true;
  server: string;
  toastId: number;
}
