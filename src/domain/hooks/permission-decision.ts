import type { Answer } from '../answers.js';
import {
  ALLOW,
  ALLOW_ALWAYS,
  DENY,
  type AnsweringTool,
  type PermissionQuestion,
} from './permission-request.js';

/** Where a denial came from, in the words the agent shows (and tells its model). */
const DENIED_FROM: Readonly<Record<Answer['surface'], string>> = {
  toast: 'Denied from the desktop (Notify toast)',
  tray: 'Denied from the desktop (Notify tray menu)',
  web: "Denied from Notify's web page",
  cli: 'Denied from the command line (notifyctl answer)',
  relay: 'Denied from the phone (Notify relay)',
  telegram: 'Denied on Telegram (Notify)',
  slack: 'Denied on Slack (Notify)',
  discord: 'Denied on Discord (Notify)',
  matrix: 'Denied on Matrix (Notify)',
  mqtt: 'Denied through MQTT (Notify)',
};

/**
 * The hook output that answers the tool's permission prompt (Claude Code: the agent SDK's
 * PermissionRequestHookSpecificOutput; Codex: its `permission-request.command.output` schema, which
 * refuses `updatedPermissions`), or undefined when the answer is none the question offered: the tool's
 * own dialog then decides.
 */
export function permissionDecision(
  tool: AnsweringTool,
  question: PermissionQuestion,
  answer: Pick<Answer, 'action' | 'surface'>,
): object | undefined {
  if (!question.actions.some((action) => action.id === answer.action)) return undefined;
  let decision: Record<string, unknown>;
  if (answer.action === ALLOW) decision = { behavior: 'allow' };
  else if (answer.action === DENY)
    decision = { behavior: 'deny', message: DENIED_FROM[answer.surface] ?? 'Denied through Notify' };
  else if (answer.action === ALLOW_ALWAYS && tool === 'claude' && question.suggestions !== undefined)
    decision = { behavior: 'allow', updatedPermissions: question.suggestions };
  else return undefined;
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
}
