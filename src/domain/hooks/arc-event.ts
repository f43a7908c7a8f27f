import type { ArcEnvelope } from '../arc/envelope.js';
import type { Origin } from '../origin.js';
import type { HookDecision, HookTool } from './decision.js';

/** Who each adapter speaks for: ARC `sender.id` (the notification's agent) and display name. */
export const HOOK_SENDERS: Readonly<Record<HookTool, { id: string; name: string }>> = {
  claude: { id: 'claude-code', name: 'Claude Code' },
  codex: { id: 'codex', name: 'Codex' },
  gemini: { id: 'gemini-cli', name: 'Gemini CLI' },
};

/** Spec "Limits": ARC keys, instance and session ids 100, project 200, cwd 1024, message 4000. */
export const MAX_ID = 100;
export const MAX_PROJECT = 200;
export const MAX_CWD = 1024;
const MAX_MESSAGE = 4000;

export interface HookEventInput {
  tool: HookTool;
  decision: HookDecision & { session: string };
  /** The folder name of the git root of cwd (or of cwd), found by the caller. */
  project?: string;
  /** Where the agent runs, read from the hook's environment (docs/focus.md). */
  origin?: Origin;
  eventId: string;
  occurredAt: Date;
  /** A digest of a session id too long for the key, computed by the caller (no crypto here). */
  longSessionDigest: (session: string) => string;
}

/**
 * The one condition key of an agent session: `<sender>:<session>`. A session id too long to fit is
 * replaced by its digest, which stays stable across the session's events.
 */
export function sessionKey(tool: HookTool, session: string, digest: (session: string) => string): string {
  const prefix = `${HOOK_SENDERS[tool].id}:`;
  return prefix.length + session.length <= MAX_ID ? prefix + session : prefix + digest(session);
}

/**
 * The ARC 0.1 event for a raise (request.created on the session key: it starts the condition or
 * refreshes the active one in place) or a resolve (request.resolved); undefined for an ignored event
 * and for a session's start, which ends earlier sessions' outcomes rather than its own condition.
 */
export function toArcEnvelope(input: HookEventInput): ArcEnvelope | undefined {
  const { tool, decision } = input;
  if (decision.todo.action === 'ignore' || decision.todo.action === 'start') return undefined;
  const key = sessionKey(tool, decision.session, input.longSessionDigest);
  const instance =
    decision.session.length <= MAX_ID ? decision.session : input.longSessionDigest(decision.session);
  const envelope: ArcEnvelope = {
    arc_version: '0.1',
    event_id: input.eventId,
    event_type: decision.todo.action === 'raise' ? 'request.created' : 'request.resolved',
    occurred_at: input.occurredAt.toISOString(),
    sender: { ...HOOK_SENDERS[tool], instance_id: instance },
    context: { session_id: instance },
    request: { key },
  };
  if (input.project !== undefined && input.project.length <= MAX_PROJECT)
    envelope.context!.project = input.project;
  if (decision.cwd !== undefined && decision.cwd.length <= MAX_CWD) envelope.context!.cwd = decision.cwd;
  if (input.origin !== undefined && decision.todo.action === 'raise')
    envelope.extensions = { 'x-notify': { origin: input.origin } };
  if (decision.todo.action === 'raise') {
    envelope.request = {
      key,
      kind: decision.todo.kind,
      title: decision.todo.title,
      message: cut(decision.todo.message, MAX_MESSAGE),
    };
  }
  return envelope;
}

function cut(value: string, max: number): string {
  const codePoints = Array.from(value);
  return codePoints.length <= max ? value : `${codePoints.slice(0, max - 1).join('')}…`;
}
