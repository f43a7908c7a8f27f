/** Delivered notifications: the PUT body's rules, lifecycles and the answer rules, free of I/O. */
import { answersWithheld } from '../../domain/display-controls.js';
import { characterCount } from '../../domain/text.js';

export type RelayStatus = 'active' | 'resolved' | 'dismissed';
export const PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];
const IDENTIFIER = /^[a-z][a-z0-9_]{0,63}$/;
export const NOTIFICATION_ID = /^[A-Za-z0-9._:-]{1,100}$/;
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export interface Action {
  id: string;
  label: string;
}

export interface Delivered {
  title: string;
  message: string;
  type: string;
  priority: Priority;
  agent: string;
  project: string | null;
  status: RelayStatus;
  actions: Action[];
  createdAt: string;
  updatedAt: string;
  /** The sender's revision of what it delivered (the PUT's `revision`); null from a sender without. */
  senderRevision: number | null;
  /** false: the sender's route keeps the message on the laptop (`message` only says who asked); a push shows the title only. */
  messageIncluded: boolean;
}

export interface Stored extends Delivered {
  inboxId: number;
  installationId: string;
  notificationId: string;
  lifecycle: number;
  /**
   * The relay's own count of what the inbox showed: 1 at first, one more with every PUT that changes
   * what a person sees or answers (or the sender's revision), and with every new lifecycle.
   */
  revision: number;
  answerAction: string | null;
  answeredAt: string | null;
  /** When the relay received this lifecycle (its own clock, ms): the inbox's order, whatever the sender dated it. */
  receivedAt: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

function text(
  body: Record<string, unknown>,
  field: string,
  max: number,
  required: boolean,
): Checked<string | undefined> {
  const value = body[field];
  if (value === undefined || value === null) {
    return required ? { ok: false, message: `${field} is required.` } : { ok: true, value: undefined };
  }
  // Characters as notifyd counts them (an emoji is one), so whatever notifyd took, the relay takes.
  if (typeof value !== 'string' || value.length < 1 || characterCount(value) > max) {
    return { ok: false, message: `${field} must be a string of 1-${max} characters.` };
  }
  return { ok: true, value };
}

function time(body: Record<string, unknown>, field: string): Checked<string> {
  const value = body[field];
  if (typeof value !== 'string' || value.length > 40 || Number.isNaN(Date.parse(value))) {
    return { ok: false, message: `${field} must be an ISO 8601 time.` };
  }
  return { ok: true, value: new Date(Date.parse(value)).toISOString() };
}

export function isStatus(value: unknown): value is RelayStatus {
  return value === 'active' || value === 'resolved' || value === 'dismissed';
}

function actionsOf(value: unknown): Checked<Action[]> {
  if (value === undefined || value === null) return { ok: true, value: [] };
  const message =
    'actions must be 0-3 objects {id, label}: id like a type identifier and distinct, label 1-40 characters.';
  if (!Array.isArray(value) || value.length > 3) return { ok: false, message };
  const actions: Action[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return { ok: false, message };
    const { id, label } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !IDENTIFIER.test(id) || typeof label !== 'string')
      return { ok: false, message };
    if (label.trim().length < 1 || label.length > 40 || actions.some((action) => action.id === id)) {
      return { ok: false, message };
    }
    actions.push({ id, label });
  }
  return { ok: true, value: actions };
}

/** The PUT body of docs/relay-protocol.md, or the sentence that says what is wrong with it. */
export function checkDelivered(body: unknown): Checked<Delivered> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The body must be a JSON object.' };
  }
  const fields = body as Record<string, unknown>;
  const title = text(fields, 'title', 200, true);
  if (!title.ok) return title;
  const message = text(fields, 'message', 4000, true);
  if (!message.ok) return message;
  const agent = text(fields, 'agent', 100, false);
  if (!agent.ok) return agent;
  const project = text(fields, 'project', 200, false);
  if (!project.ok) return project;
  const type = fields['type'] ?? 'info';
  if (typeof type !== 'string' || !IDENTIFIER.test(type)) {
    return { ok: false, message: 'type must match ^[a-z][a-z0-9_]{0,63}$.' };
  }
  const priority = fields['priority'] ?? 'normal';
  if (!PRIORITIES.includes(priority as Priority)) {
    return { ok: false, message: 'priority must be one of low, normal, high, critical.' };
  }
  if (!isStatus(fields['status']))
    return { ok: false, message: 'status must be one of active, resolved, dismissed.' };
  const actions = actionsOf(fields['actions']);
  if (!actions.ok) return actions;
  const createdAt = time(fields, 'created_at');
  if (!createdAt.ok) return createdAt;
  const updatedAt = time(fields, 'updated_at');
  if (!updatedAt.ok) return updatedAt;
  const senderRevision = fields['revision'] ?? null;
  if (senderRevision !== null && !(Number.isSafeInteger(senderRevision) && (senderRevision as number) >= 1))
    return { ok: false, message: 'revision must be an integer from 1.' };
  const messageIncluded = fields['message_included'] ?? true;
  if (typeof messageIncluded !== 'boolean')
    return { ok: false, message: 'message_included must be true or false.' };
  return {
    ok: true,
    value: {
      messageIncluded,
      title: title.value!,
      message: message.value!,
      type,
      priority: priority as Priority,
      agent: agent.value ?? 'unknown',
      project: project.value ?? null,
      status: fields['status'],
      actions: actions.value,
      createdAt: createdAt.value,
      updatedAt: updatedAt.value,
      senderRevision: senderRevision as number | null,
    },
  };
}

/** Notifications one installation keeps on the relay; beyond it the oldest ended ones make room. */
export const MAX_NOTIFICATIONS_PER_INSTALLATION = 1000;

export type PutEffect = 'insert' | 'new_lifecycle' | 'update' | 'stale';

export function putEffect(stored: Stored | undefined, incoming: Delivered): PutEffect {
  if (!stored) return 'insert';
  if (Date.parse(incoming.updatedAt) < Date.parse(stored.updatedAt)) return 'stale';
  if (incoming.status === 'active' && stored.status !== 'active') return 'new_lifecycle';
  return 'update';
}

/**
 * The relay's revision after a PUT of this effect: a new lifecycle, or a change of anything the inbox
 * shows or answers (or of the sender's revision), is a new one, so an answer given to the inbox's
 * earlier view is refused.
 */
export function revisionAfter(stored: Stored, incoming: Delivered, effect: PutEffect): number {
  if (effect === 'new_lifecycle') return stored.revision + 1;
  if (effect !== 'update') return stored.revision;
  const changed =
    incoming.title !== stored.title ||
    incoming.message !== stored.message ||
    incoming.type !== stored.type ||
    incoming.priority !== stored.priority ||
    incoming.agent !== stored.agent ||
    incoming.project !== stored.project ||
    JSON.stringify(incoming.actions) !== JSON.stringify(stored.actions) ||
    incoming.senderRevision !== stored.senderRevision;
  return changed ? stored.revision + 1 : stored.revision;
}

export type AnswerRefusal =
  'unknown_action' | 'not_active' | 'answered' | 'other_lifecycle' | 'other_revision' | 'terminal_only';

/**
 * docs/relay-protocol.md "The answer rules": once, while active, for this lifecycle and the revision the
 * person saw, one of its actions, and never for text that displays differently from what runs (its
 * answer is given in the terminal).
 */
export function answerRefusal(
  stored: Stored,
  action: string,
  lifecycle: number,
  revision: number,
): AnswerRefusal | undefined {
  if (answersWithheld(stored)) return 'terminal_only';
  if (lifecycle !== stored.lifecycle) return 'other_lifecycle';
  if (stored.answerAction !== null) return 'answered';
  if (stored.status !== 'active') return 'not_active';
  if (revision !== stored.revision) return 'other_revision';
  if (!stored.actions.some((offered) => offered.id === action)) return 'unknown_action';
  return undefined;
}
