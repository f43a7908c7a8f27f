import { readOrigin } from '../origin.js';
import type { Metadata, NotificationDraft } from '../notification.js';
import type { Priority } from '../priority.js';
import type { ArcEnvelope, ArcKind } from './envelope.js';

/** Spec table "ARC kind to local defaults". */
export const KIND_DEFAULTS: Readonly<Record<ArcKind, { type: string; priority: Priority }>> = {
  information: { type: 'info', priority: 'normal' },
  question: { type: 'input_required', priority: 'high' },
  permission: { type: 'permission_required', priority: 'high' },
  blocked: { type: 'blocked', priority: 'high' },
  failure: { type: 'error', priority: 'high' },
  completion: { type: 'completed', priority: 'normal' },
};

/** The words a derived title starts with, one per kind. */
export const KIND_LABELS: Readonly<Record<ArcKind, string>> = {
  information: 'Information',
  question: 'Question',
  permission: 'Permission needed',
  blocked: 'Blocked',
  failure: 'Failed',
  completion: 'Completed',
};

export const MAX_TITLE_CHARACTERS = 200;

/** Up to the first line break (CR, LF or CRLF): the lines after it are never split out. */
const FIRST_LINE = /^[^\r\n]*/;
/** Whitespace other than one plain space between words: what the title folds into single spaces. */
const UNEVEN_SPACE = /[^\S ]| {2}/;

/**
 * A title for an event that has none: the kind's label and the message's first line, e.g.
 * "Question: Deploy to production?"; cut to 200 code points with an ellipsis. Never empty.
 */
export function deriveTitle(kind: ArcKind, message: string): string {
  const line = FIRST_LINE.exec(message.trim())![0];
  // Most first lines are spaced evenly already: no replace to run (issue 38: every untitled ARC event).
  const firstLine = UNEVEN_SPACE.test(line) ? line.replace(/\s+/g, ' ').trim() : line.trimEnd();
  const title = firstLine ? `${KIND_LABELS[kind]}: ${firstLine}` : KIND_LABELS[kind];
  return truncate(title, MAX_TITLE_CHARACTERS);
}

function truncate(text: string, max: number): string {
  // No more code points than UTF-16 units: a short text needs no count (issue 38: every ARC event's title).
  if (text.length <= max) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= max) return text;
  return `${codePoints
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** request.key as the condition key: trimmed like a native key, so both share one namespace. */
export function conditionKey(envelope: ArcEnvelope): string | undefined {
  const key = envelope.request.key?.trim();
  return key ? key : undefined;
}

/**
 * The notification a request.created or request.updated event asks to show (conventions.md "ARC field
 * mapping"). Text is trimmed like native input; optional context text that is empty after trimming is
 * absent. The schema guarantees kind and message for these event types.
 */
export function toDraft(envelope: ArcEnvelope): NotificationDraft {
  const { sender, request } = envelope;
  const context = envelope.context ?? {};
  const kind = request.kind!;
  const message = request.message!.trim();
  const draft: NotificationDraft = {
    agent: sender.id.trim(),
    type: envelope.extensions?.['x-notify']?.notification_type ?? KIND_DEFAULTS[kind].type,
    priority: request.priority ?? KIND_DEFAULTS[kind].priority,
    title: request.title?.trim() || deriveTitle(kind, message),
    message,
    metadata: arcMetadata(envelope),
  };
  const key = conditionKey(envelope);
  if (key !== undefined) draft.key = key;
  const agentInstance = optionalText(sender.instance_id);
  if (agentInstance !== undefined) draft.agentInstance = agentInstance;
  const project = optionalText(context.project);
  if (project !== undefined) draft.project = project;
  const cwd = optionalText(context.cwd);
  if (cwd !== undefined) draft.cwd = cwd;
  if (context.pid !== undefined) draft.pid = context.pid;
  const origin = readOrigin(envelope.extensions?.['x-notify']?.origin, 'extensions.x-notify.origin');
  if (origin !== undefined) draft.origin = origin;
  return draft;
}

function optionalText(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

/**
 * `metadata.arc`: the envelope minus what became notification fields, in the envelope's own shape.
 * Unknown extension values are never copied.
 */
export function arcMetadata(envelope: ArcEnvelope): Metadata {
  const arc: Metadata = {
    arc_version: envelope.arc_version,
    event_id: envelope.event_id,
    event_type: envelope.event_type,
    occurred_at: envelope.occurred_at,
  };
  const sender = pick(envelope.sender, ['name', 'version']);
  if (sender) arc['sender'] = sender;
  const context = pick(envelope.context ?? {}, ['session_id', 'correlation_id']);
  if (context) arc['context'] = context;
  if (envelope.request.kind !== undefined) arc['request'] = { kind: envelope.request.kind };
  return { arc };
}

function pick<T extends object>(source: T, fields: readonly (keyof T & string)[]): Metadata | undefined {
  const picked: Metadata = {};
  for (const field of fields) {
    if (source[field] !== undefined) picked[field] = source[field];
  }
  return Object.keys(picked).length > 0 ? picked : undefined;
}
