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

/** SessionEnd ends what asks for the person, and an outcome only at some ends (sessionEndAction). */
const RETURN_EVENTS = new Set(['BeforeAgent', 'BeforeTool', 'AfterTool']);

/** Gemini CLI hooks (`settings.json`, stdin JSON): `session_id`, `cwd`, `hook_event_name` in every payload. */
export function readGeminiPayload(payload: unknown): HookDecision {
  const record = asRecord(payload);
  const event = label(record, 'hook_event_name') ?? '(unnamed)';
  if (RETURN_EVENTS.has(event)) return decide(record, event, RESOLVE);
  switch (event) {
    case 'SessionEnd':
      return decide(record, event, sessionEndAction(record));
    case 'SessionStart':
      return decide(record, event, START);
    case 'Notification':
      // ToolPermission is the one type documented today; others tell the person nothing to do.
      if (text(record, 'notification_type') !== 'ToolPermission') return decide(record, event, IGNORE);
      return decide(
        record,
        event,
        raise(
          'permission',
          'Gemini CLI needs your permission',
          text(record, 'message') ?? 'Gemini CLI is waiting for your permission.',
        ),
      );
    case 'AfterAgent':
      return decide(
        record,
        event,
        raise('completion', 'Gemini CLI finished', 'Gemini CLI finished its turn.'),
      );
    default:
      return decide(record, event, IGNORE);
  }
}
