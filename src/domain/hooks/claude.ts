import {
  IGNORE,
  RESOLVE,
  asRecord,
  decide,
  label,
  raise,
  text,
  type HookAction,
  type HookDecision,
} from './decision.js';

/** Events that mean the person is back: the session's open condition is over (docs/agents.md). */
const RETURN_EVENTS = new Set([
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'ElicitationResult',
  'SessionEnd',
]);

/** The hook events Claude Code sends (stdin JSON, `hook_event_name`) read as a condition change. */
export function readClaudePayload(payload: unknown): HookDecision {
  const record = asRecord(payload);
  const event = label(record, 'hook_event_name') ?? '(unnamed)';
  return decide(record, event, claudeAction(event, record));
}

function claudeAction(event: string, record: Record<string, unknown>): HookAction {
  if (RETURN_EVENTS.has(event)) return RESOLVE;
  switch (event) {
    case 'Notification':
      return notificationAction(record);
    case 'PermissionRequest': {
      const tool = label(record, 'tool_name');
      return raise(
        'permission',
        'Claude Code needs your permission',
        tool ? `Claude Code wants to use ${tool}.` : 'Claude Code is waiting for your permission.',
      );
    }
    case 'Elicitation':
      return raise(
        'question',
        'Claude Code needs your input',
        text(record, 'message') ?? 'An MCP server is asking for your input.',
      );
    case 'Stop':
      return raise('completion', 'Claude Code finished', 'Claude Code finished its turn.');
    case 'StopFailure': {
      const error = label(record, 'error');
      return raise(
        'failure',
        'Claude Code stopped on an error',
        error ? `The turn ended with an error (${error}).` : 'The turn ended with an error.',
      );
    }
    default:
      return IGNORE;
  }
}

/**
 * `notification_type` is a free string that grows over time; builds that send none are read from the
 * wording of their two classic messages. Types that ask nothing of the person are ignored.
 */
function notificationAction(record: Record<string, unknown>): HookAction {
  const message = text(record, 'message');
  const type = text(record, 'notification_type') ?? classicType(message);
  switch (type) {
    case 'permission_prompt':
      return raise(
        'permission',
        'Claude Code needs your permission',
        message ?? 'Claude Code is waiting for your permission.',
      );
    case 'idle_prompt':
    case 'elicitation_dialog':
    case 'agent_needs_input':
      return raise(
        'question',
        'Claude Code needs your input',
        message ?? 'Claude Code is waiting for your input.',
      );
    case 'agent_completed':
      return raise('completion', 'Claude Code finished', message ?? 'An agent finished its work.');
    default:
      return IGNORE;
  }
}

function classicType(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if (/\bpermission\b/i.test(message)) return 'permission_prompt';
  if (/\bwaiting for your input\b/i.test(message)) return 'idle_prompt';
  return undefined;
}
