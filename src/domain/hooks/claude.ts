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
  type HookAction,
  type HookDecision,
} from './decision.js';

/**
 * Events that mean the person is back: the session's open condition is over (docs/agents.md).
 * SessionEnd ends what asks for the person, and an outcome only at some ends (sessionEndAction).
 */
const RETURN_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'ElicitationResult',
]);

/**
 * UserPromptSubmit's `source` names who wrote the prompt. Only `user` is a person at the composer;
 * `sdk`, `system`, `loop_wakeup`, `schedule_wakeup` and `poll_event` are entrypoints and machine-made
 * turns (a /loop wake-up must not clear "Claude Code finished"). Builds before the field send none,
 * and 2.1.332 still sends none in `claude -p`, where a background task's report arrives as a prompt
 * that is one `<task-notification>` block: that one is read as machine-made whatever its source.
 */
const PERSON_SOURCE = 'user';
const TASK_NOTIFICATION = '<task-notification>';

function isPersonsPrompt(record: Record<string, unknown>): boolean {
  if ((text(record, 'source') ?? PERSON_SOURCE) !== PERSON_SOURCE) return false;
  return !text(record, 'prompt')?.startsWith(TASK_NOTIFICATION);
}

/** `notification_type`s that ask the person for something, and the condition each one raises. */
const PERMISSION_NOTIFICATIONS = new Set(['permission_prompt', 'worker_permission_prompt']);
const QUESTION_NOTIFICATIONS = new Set([
  'idle_prompt',
  'elicitation_dialog',
  'elicitation_url_dialog',
  'agent_needs_input',
  // "Usage limit reset, press enter to continue" and "the task will not resume on its own".
  'quota_auto_resume_stale',
  'quota_auto_resume_disabled',
]);
/**
 * Notifications that end what was waiting: the person answered an MCP server (form or URL), or the
 * session went back to work by itself once the usage limit reset.
 */
const RESOLVING_NOTIFICATIONS = new Set([
  'elicitation_response',
  'elicitation_complete',
  'quota_auto_resume_fired',
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
    case 'SessionEnd':
      return sessionEndAction(record);
    case 'SessionStart':
      return START;
    case 'UserPromptSubmit':
      return isPersonsPrompt(record) ? RESOLVE : IGNORE;
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
      return stopAction(record);
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
 * A turn that ends while background work (a subagent, a shell, a monitor) is still in flight is a
 * pause, not the end: the session wakes when that work reports back. It still tells the person the
 * turn is over (a background dev server may run for hours), without claiming the work is done; the
 * Stop after the last task replaces it in place with "finished".
 */
function stopAction(record: Record<string, unknown>): HookAction {
  const tasks = record['background_tasks'];
  const running = Array.isArray(tasks) ? tasks.length : 0;
  if (running === 0) return raise('completion', 'Claude Code finished', 'Claude Code finished its turn.');
  const still = running === 1 ? '1 background task is' : `${running} background tasks are`;
  return raise('completion', 'Claude Code paused', `Claude Code ended its turn; ${still} still running.`);
}

/**
 * `notification_type` is a free string that grows over time; builds that send none are read from the
 * wording of their two classic messages. Types that ask nothing of the person (auth_success,
 * push_notification, computer_use_enter/exit, model_refusal_fallback, auth_storage_failure,
 * plugin_notification and any new one) are ignored.
 */
function notificationAction(record: Record<string, unknown>): HookAction {
  const message = text(record, 'message');
  const type = text(record, 'notification_type') ?? classicType(message);
  if (type === undefined) return IGNORE;
  if (PERMISSION_NOTIFICATIONS.has(type))
    return raise(
      'permission',
      'Claude Code needs your permission',
      message ?? 'Claude Code is waiting for your permission.',
    );
  if (QUESTION_NOTIFICATIONS.has(type))
    return raise(
      'question',
      'Claude Code needs your input',
      message ?? 'Claude Code is waiting for your input.',
    );
  if (type === 'agent_completed')
    return raise('completion', 'Claude Code finished', message ?? 'An agent finished its work.');
  return RESOLVING_NOTIFICATIONS.has(type) ? RESOLVE : IGNORE;
}

function classicType(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if (/\bpermission\b/i.test(message)) return 'permission_prompt';
  if (/\bwaiting for your input\b/i.test(message)) return 'idle_prompt';
  return undefined;
}
