import type { Action, Answer, Surface } from './answers.js';
import type { Origin } from './origin.js';
import type { Priority } from './priority.js';

export const STATUSES = ['active', 'dismissed', 'resolved'] as const;
export type Status = (typeof STATUSES)[number];

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

export type Metadata = Record<string, unknown>;

/** What a producer asks to show; everything a create or an in-place update writes. */
export interface NotificationDraft {
  key?: string;
  agent: string;
  agentInstance?: string;
  project?: string;
  type: string;
  priority: Priority;
  title: string;
  message: string;
  cwd?: string;
  pid?: number;
  metadata?: Metadata;
  /** The choices offered to the person (an extension; absent on notifications without any). */
  actions?: Action[];
  /** Where the agent runs, innermost first (an extension; absent when unknown): docs/focus.md. */
  origin?: Origin;
  /**
   * The name of the agent token it was raised with (`notifyctl tokens`, `remote add`): set at creation,
   * never changed; absent when the owner token raised it.
   */
  raisedBy?: string;
}

/** A stored notification; times are epoch milliseconds. */
export interface NotificationRecord extends NotificationDraft {
  id: string;
  status: Status;
  /**
   * 1 at creation, one more with every change of what the person sees or answers (an in-place update
   * that changes a field, a reopening): an answer names the revision it answers (docs/answers.md).
   */
  revision: number;
  createdAt: number;
  updatedAt: number;
  resolvedAt?: number;
  /** The person's answer; it resolved the notification. */
  answer?: Answer;
  /** Snoozed: silent until then, when it alerts again if still active (an extension). */
  snoozedUntil?: number;
}

/**
 * A new notification as it is stored: active, revision 1, created and updated now. Built from the draft
 * rather than read back, so a create costs no SELECT and no JSON parse of what it just wrote.
 */
export function newRecord(id: string, draft: NotificationDraft, now: number): NotificationRecord {
  const record: NotificationRecord = {
    id,
    agent: draft.agent,
    type: draft.type,
    priority: draft.priority,
    title: draft.title,
    message: draft.message,
    status: 'active',
    revision: 1,
    createdAt: now,
    updatedAt: now,
  };
  if (draft.key !== undefined) record.key = draft.key;
  if (draft.agentInstance !== undefined) record.agentInstance = draft.agentInstance;
  if (draft.project !== undefined) record.project = draft.project;
  if (draft.cwd !== undefined) record.cwd = draft.cwd;
  if (draft.pid !== undefined) record.pid = draft.pid;
  if (draft.metadata !== undefined) record.metadata = draft.metadata;
  if (draft.actions !== undefined) record.actions = draft.actions;
  if (draft.origin !== undefined) record.origin = draft.origin;
  if (draft.raisedBy !== undefined) record.raisedBy = draft.raisedBy;
  return record;
}

/** The wire shape of the spec's Notification resource. */
export interface NotificationDto {
  id: string;
  key?: string;
  agent: string;
  agentInstance?: string;
  project?: string;
  type: string;
  priority: Priority;
  title: string;
  message: string;
  cwd?: string;
  pid?: number;
  status: Status;
  revision: number;
  createdAt: string;
  updatedAt: string;
  resolvedAt?: string;
  metadata: Metadata | null;
  actions?: Action[];
  origin?: Origin;
  answer?: { action: string; surface: Surface; answeredAt: string };
  snoozedUntil?: string;
  raisedBy?: string;
}

let lastFormatted = { epochMs: Number.NaN, text: '' };

/** ISO 8601 in UTC with an explicit `+00:00` offset, e.g. 2026-11-22T16:45:00.123+00:00. */
export function formatTimestamp(epochMs: number): string {
  // One answer and its outbox payload format the same few instants (createdAt equals updatedAt on create).
  if (epochMs !== lastFormatted.epochMs)
    lastFormatted = { epochMs, text: new Date(epochMs).toISOString().replace('Z', '+00:00') };
  return lastFormatted.text;
}

export function toDto(record: NotificationRecord): NotificationDto {
  return {
    id: record.id,
    ...(record.key !== undefined && { key: record.key }),
    agent: record.agent,
    ...(record.agentInstance !== undefined && { agentInstance: record.agentInstance }),
    ...(record.project !== undefined && { project: record.project }),
    type: record.type,
    priority: record.priority,
    title: record.title,
    message: record.message,
    ...(record.cwd !== undefined && { cwd: record.cwd }),
    ...(record.pid !== undefined && { pid: record.pid }),
    status: record.status,
    revision: record.revision,
    createdAt: formatTimestamp(record.createdAt),
    updatedAt: formatTimestamp(record.updatedAt),
    ...(record.resolvedAt !== undefined && { resolvedAt: formatTimestamp(record.resolvedAt) }),
    metadata: record.metadata ?? null,
    ...(record.actions !== undefined && { actions: record.actions }),
    ...(record.origin !== undefined && { origin: record.origin }),
    ...(record.answer !== undefined && {
      answer: { ...record.answer, answeredAt: formatTimestamp(record.answer.answeredAt) },
    }),
    ...(record.snoozedUntil !== undefined && { snoozedUntil: formatTimestamp(record.snoozedUntil) }),
    ...(record.raisedBy !== undefined && { raisedBy: record.raisedBy }),
  };
}
