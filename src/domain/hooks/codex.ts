import {
  IGNORE,
  RESOLVE,
  START,
  asRecord,
  decide,
  label,
  raise,
  sessionEndAction,
  text,
  type HookDecision,
} from './decision.js';

/**
 * Events that mean the person is back. Interrupt is the person stopping the turn at the terminal.
 * SessionEnd (`reason` "other" in 0.169.0, after `codex exec`) ends
 * what asks for the person and leaves an outcome (sessionEndAction).
 */
const RETURN_EVENTS = new Set(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Interrupt']);

/** Codex hooks (`hooks.json`, stdin JSON): Claude-like names, `session_id` and `cwd` in every payload. */
export function readCodexPayload(payload: unknown): HookDecision {
  const record = asRecord(payload);
  const event = label(record, 'hook_event_name') ?? '(unnamed)';
  if (RETURN_EVENTS.has(event)) return decide(record, event, RESOLVE);
  switch (event) {
    case 'SessionEnd':
      return decide(record, event, sessionEndAction(record));
    case 'SessionStart':
      return decide(record, event, START);
    case 'PermissionRequest': {
      const tool = label(record, 'tool_name');
      const message = tool ? `Codex wants to use ${tool}.` : 'Codex is waiting for your approval.';
      return decide(record, event, raise('permission', 'Codex needs your approval', message));
    }
    case 'Stop':
      return decide(record, event, raise('completion', 'Codex finished', 'Codex finished its turn.'));
    default:
      return decide(record, event, IGNORE);
  }
}

/**
 * Codex's legacy `notify` program: one JSON argument with a `type` (kebab-case fields). Codex sends
 * only `agent-turn-complete` there; `approval-requested` is a name of its TUI's own desktop
 * notifications (`tui.notifications`), never a payload of the notify program.
 */
export function readCodexNotifyArgument(payload: unknown): HookDecision {
  const record = asRecord(payload);
  const type = label(record, 'type') ?? '(untyped)';
  const decision: HookDecision = { event: `notify:${type}`, todo: IGNORE };
  const session = text(record, 'thread-id');
  const cwd = text(record, 'cwd');
  if (session !== undefined) decision.session = session;
  if (cwd !== undefined) decision.cwd = cwd;
  if (type === 'agent-turn-complete')
    decision.todo = raise('completion', 'Codex finished', 'Codex finished its turn.');
  return decision;
}
