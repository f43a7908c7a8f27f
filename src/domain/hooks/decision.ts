import type { ArcKind } from '../arc/envelope.js';

/** The agent tools Notify has hook adapters for. */
export type HookTool = 'claude' | 'codex' | 'gemini';

export const HOOK_TOOLS: readonly HookTool[] = ['claude', 'codex', 'gemini'];

export function isHookTool(value: string | undefined): value is HookTool {
  return (HOOK_TOOLS as readonly (string | undefined)[]).includes(value);
}

/** What a hook event asks of the session's condition. */
export type HookAction =
  | { action: 'raise'; kind: ArcKind; title: string; message: string }
  /** `keepOutcome`: resolve only what asks for the person; a finished or failed turn stays. */
  | { action: 'resolve'; keepOutcome?: true }
  /**
   * A session starts: the outcomes (finished, failed) that earlier sessions of the same tool left in
   * the same project end, since the person (or the next scripted run) is back at it.
   */
  | { action: 'start' }
  | { action: 'ignore' };

/**
 * One hook payload, read: the session it belongs to, where the agent works, the event's name (for
 * the log line only) and what to do. `session` is absent when the payload names none; nothing can
 * then be keyed, so the runner only logs.
 */
export interface HookDecision {
  event: string;
  session?: string;
  cwd?: string;
  todo: HookAction;
}

/** The object form of a payload, or an empty one: unknown shapes are read as "no fields". */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A field's text when it is a non-blank string, trimmed; any other value reads as absent. */
export function text(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A short label taken from a payload for titles and the log (an event or tool name): kept only when
 * it looks like an identifier, so no free text (a prompt, a command) ever slips through.
 */
export function label(record: Record<string, unknown>, field: string): string | undefined {
  const value = text(record, field);
  return value !== undefined && /^[A-Za-z0-9_.:-]{1,64}$/.test(value) ? value : undefined;
}

export function raise(kind: ArcKind, title: string, message: string): HookAction {
  return { action: 'raise', kind, title, message };
}

export const RESOLVE: HookAction = { action: 'resolve' };
export const RESOLVE_ASKING: HookAction = { action: 'resolve', keepOutcome: true };

/**
 * SessionEnd `reason`s that mean the person ended the session at the terminal: Claude Code's
 * `prompt_input_exit` (/exit), `clear`, `logout`; Gemini CLI's `exit` too.
 */
const PERSON_ENDED = new Set(['prompt_input_exit', 'clear', 'logout', 'exit']);

/**
 * The end of a session always ends what asks for the person (a permission, a question): nobody can
 * answer it any more. An outcome (finished, failed) ends with the session only when the person ended
 * it at the terminal, having seen it there; after any other end (`other`: `claude -p`, `codex exec`,
 * `gemini -p`, a script, Codex's own end) it is the one trace of the run, and stays until its
 * lifetime ends, the person acts on it, or the same project's next session starts.
 */
export function sessionEndAction(record: Record<string, unknown>): HookAction {
  return PERSON_ENDED.has(text(record, 'reason') ?? '') ? RESOLVE : RESOLVE_ASKING;
}
export const IGNORE: HookAction = { action: 'ignore' };
export const START: HookAction = { action: 'start' };

/** The common part of a decision: the session, cwd and event of a stdin payload. */
export function decide(payload: Record<string, unknown>, event: string, todo: HookAction): HookDecision {
  const decision: HookDecision = { event, todo };
  const session = text(payload, 'session_id');
  const cwd = text(payload, 'cwd');
  if (session !== undefined) decision.session = session;
  if (cwd !== undefined) decision.cwd = cwd;
  return decision;
}
