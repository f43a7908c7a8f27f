import { answersWithheld, TERMINAL_ONLY } from './display-controls.js';
import { InvalidRequestError } from './errors.js';
import { isJsonObject, readText, rejectUnknownFields, requireObjectBody } from './fields.js';
import { isTypeIdentifier } from './notification-type.js';

/** One choice a notification offers the person (conventions.md "Extensions beyond the spec"). */
export interface Action {
  id: string;
  label: string;
}

export const MAX_ACTIONS = 3;
export const MAX_ACTION_LABEL = 40;

/** Where the person answered: the broker's own surfaces, then the channels that carry answers back. */
export const SURFACES = [
  'toast',
  'tray',
  'web',
  'cli',
  'relay',
  'telegram',
  'slack',
  'discord',
  'matrix',
  'mqtt',
] as const;
export type Surface = (typeof SURFACES)[number];

/**
 * The surfaces an HTTP caller may name. Toast and tray answers come from the broker's own presenters,
 * so no API client can claim that the person pressed a button on the desktop.
 */
export const API_SURFACES = ['cli', 'web', 'relay'] as const satisfies readonly Surface[];
export const DEFAULT_API_SURFACE: Surface = 'cli';

/** The person's answer, kept on the notification; answeredAt in epoch milliseconds. */
export interface Answer {
  action: string;
  surface: Surface;
  answeredAt: number;
}

/** The `actions` field of a native create: 1 to 3 `{id, label}`, ids unique; undefined when absent. */
export function readActions(input: Record<string, unknown>): Action[] | undefined {
  const value = input['actions'];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_ACTIONS) {
    throw new InvalidRequestError(`actions must be an array of 1 to ${MAX_ACTIONS} {id, label} objects`);
  }
  const actions = value.map((entry: unknown, index) => readAction(entry, index));
  const ids = new Set(actions.map((action) => action.id));
  if (ids.size !== actions.length) throw new InvalidRequestError('actions must have distinct ids');
  return actions;
}

function readAction(entry: unknown, index: number): Action {
  const field = `actions[${index}]`;
  if (!isJsonObject(entry)) throw new InvalidRequestError(`${field} must be an object with id and label`);
  rejectUnknownFields(entry, ['id', 'label']);
  const id = entry['id'];
  if (typeof id !== 'string' || !isTypeIdentifier(id)) {
    throw new InvalidRequestError(
      `${field}.id must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores`,
    );
  }
  const label = readText(entry, 'label', { max: MAX_ACTION_LABEL, required: true });
  return { id, label };
}

/** A validated body of POST /v1/notifications/{id}/answer. */
export interface AnswerRequest {
  action: string;
  surface: Surface;
  /** The revision the person saw; absent only from a script's answer (docs/answers.md). */
  revision?: number;
}

export function parseAnswerRequest(body: unknown): AnswerRequest {
  const input = requireObjectBody(body);
  rejectUnknownFields(input, ['action', 'surface', 'revision']);
  const action = input['action'];
  if (action === undefined || action === null) throw new InvalidRequestError('action is required');
  if (typeof action !== 'string' || action.trim() === '' || action.trim().length > 64)
    throw new InvalidRequestError("action must be the id of one of the notification's actions");
  const surface = input['surface'] ?? DEFAULT_API_SURFACE;
  if (typeof surface !== 'string' || !(API_SURFACES as readonly string[]).includes(surface)) {
    throw new InvalidRequestError(
      `surface must be one of ${API_SURFACES.join(', ')} (toast and tray answers come from the broker itself)`,
    );
  }
  const revision = input['revision'] ?? undefined;
  if (revision !== undefined && !(Number.isSafeInteger(revision) && (revision as number) >= 1))
    throw new InvalidRequestError(
      'revision must be a whole number from 1: the revision of the notification that was shown',
    );
  return {
    action: action.trim(),
    surface: surface as Surface,
    ...(revision !== undefined && { revision: revision as number }),
  };
}

/** The refusal of an answer given to what the notification showed before it changed. */
export function staleAnswerMessage(answered: number, current: number): string {
  return `this request changed after it was shown (revision ${answered} answered, now revision ${current}); look at it again and answer what it asks now`;
}

/**
 * Why this notification cannot take this answer, or undefined when it can (the answer then resolves it).
 * `revision` is the one the person answered; undefined (a script's answer) takes the current one.
 */
export function answerRefusal(
  notification: {
    status: string;
    revision: number;
    title: string;
    message?: string;
    actions?: Action[];
    answer?: Answer;
  },
  action: string,
  revision?: number,
): { conflict: boolean; stale?: true; message: string } | undefined {
  // No surface offers buttons for such a request; one that forgot still cannot approve it.
  if (answersWithheld(notification)) return { conflict: true, message: TERMINAL_ONLY };
  if (notification.answer) {
    return {
      conflict: true,
      message: `notification already answered: ${notification.answer.action} (from ${notification.answer.surface})`,
    };
  }
  if (notification.status !== 'active') {
    return {
      conflict: true,
      message: `notification is ${notification.status}; only an active notification can be answered`,
    };
  }
  if (revision !== undefined && revision !== notification.revision)
    return { conflict: true, stale: true, message: staleAnswerMessage(revision, notification.revision) };
  const actions = notification.actions ?? [];
  if (actions.length === 0) return { conflict: false, message: 'notification has no actions to answer' };
  if (!actions.some((candidate) => candidate.id === action)) {
    return {
      conflict: false,
      message: `unknown action "${action}"; this notification's actions are ${actions.map((a) => a.id).join(', ')}`,
    };
  }
  return undefined;
}
