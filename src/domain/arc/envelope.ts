import type { Priority } from '../priority.js';

/** ARC 0.1 event types (spec "ARC event envelope"). */
export const ARC_EVENT_TYPES = ['request.created', 'request.updated', 'request.resolved'] as const;
export type ArcEventType = (typeof ARC_EVENT_TYPES)[number];

export const ARC_KINDS = [
  'information',
  'question',
  'permission',
  'blocked',
  'failure',
  'completion',
] as const;
export type ArcKind = (typeof ARC_KINDS)[number];

export interface ArcSender {
  id: string;
  name?: string;
  version?: string;
  instance_id?: string;
}

export interface ArcContext {
  session_id?: string;
  correlation_id?: string;
  project?: string;
  cwd?: string;
  pid?: number;
}

export interface ArcRequest {
  key?: string;
  kind?: ArcKind;
  title?: string;
  message?: string;
  priority?: Priority;
}

export interface ArcNotifyExtension {
  notification_type?: string;
  /** Where the agent runs (docs/focus.md); checked by readOrigin, not by the schema. */
  origin?: unknown;
}

/** An envelope that passed schemas/arc-0.1.schema.json; the conditional requirements hold too. */
export interface ArcEnvelope {
  arc_version: '0.1';
  event_id: string;
  event_type: ArcEventType;
  occurred_at: string;
  sender: ArcSender;
  context?: ArcContext;
  request: ArcRequest;
  extensions?: { 'x-notify'?: ArcNotifyExtension; [namespaced: string]: unknown };
}
