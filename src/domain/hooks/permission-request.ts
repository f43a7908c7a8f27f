import { HOOK_SENDERS } from './arc-event.js';
import { alwaysAllowLabel, alwaysAllowLine, alwaysAllowOf } from './always-allow.js';
import { asRecord, label, type HookTool } from './decision.js';

/** The tools whose PermissionRequest hook can answer the prompt (Gemini CLI's hooks cannot). */
export type AnsweringTool = Extract<HookTool, 'claude' | 'codex'>;

export function isAnsweringTool(tool: HookTool): tool is AnsweringTool {
  return tool === 'claude' || tool === 'codex';
}

export const ALLOW = 'allow';
export const DENY = 'deny';
export const ALLOW_ALWAYS = 'allow_always';

/**
 * Spec "Limits": a message holds 4000 characters. The command keeps room for the sentence before it
 * and the line that says it is cut.
 */
const MAX_SUBJECT = 3800;
/** A message with the line about "Always allow", leaving room for the hook's "Answer in the terminal." */
const MAX_MESSAGE = 3960;

/** A permission request as the person is asked it: what will run, and the choices. */
export interface PermissionQuestion {
  title: string;
  message: string;
  /** What will run, without the line about the buttons: the message once only the terminal answers. */
  subject: string;
  actions: { id: string; label: string }[];
  /**
   * The part of Claude Code's `permission_suggestions` its terminal's "always allow" applies (no mode
   * change), carried as `updatedPermissions` by "Always allow".
   */
  suggestions?: object[];
}

const TITLES: Readonly<Record<AnsweringTool, string>> = {
  claude: 'Claude Code needs your permission',
  codex: 'Codex needs your approval',
};

/**
 * A PermissionRequest payload read for the person: the Bash command, the file of an edit or write,
 * the URL of a fetch, exactly as the tool will use it (cut only when it cannot fit, and then saying
 * so), never the prompt or any tool output. Other tools are named only.
 */
export function readPermissionQuestion(tool: AnsweringTool, payload: unknown): PermissionQuestion {
  const record = asRecord(payload);
  const agent = HOOK_SENDERS[tool].name;
  const toolName = label(record, 'tool_name');
  const input = asRecord(record['tool_input']);
  const actions = [
    { id: ALLOW, label: 'Allow' },
    { id: DENY, label: 'Deny' },
  ];
  const subject = describe(agent, toolName, input);
  const question: PermissionQuestion = { title: TITLES[tool], message: subject, subject, actions };
  const always =
    tool === 'claude' ? alwaysAllowOf(readSuggestions(record['permission_suggestions'])) : undefined;
  if (always === undefined) return question;
  const line = alwaysAllowLine(always);
  const message = line === undefined ? question.message : `${question.message}\n\n${line}`;
  // A grant too long to be said beside the command is left to the terminal's own option.
  if (Array.from(message).length > MAX_MESSAGE) return question;
  question.message = message;
  question.suggestions = always.grants;
  actions.push({ id: ALLOW_ALWAYS, label: alwaysAllowLabel(always) });
  return question;
}

function describe(agent: string, toolName: string | undefined, input: Record<string, unknown>): string {
  const command = whole(input, 'command');
  if (toolName === 'Bash' && command !== undefined)
    return `${agent} wants to run this command:\n${cut(command)}`;
  const file = whole(input, 'file_path') ?? whole(input, 'notebook_path');
  if (file !== undefined && (toolName === 'Write' || toolName === 'NotebookEdit'))
    return `${agent} wants to write ${cut(file)}`;
  if (file !== undefined && (toolName === 'Edit' || toolName === 'MultiEdit'))
    return `${agent} wants to edit ${cut(file)}`;
  const url = whole(input, 'url');
  if (toolName === 'WebFetch' && url !== undefined) return `${agent} wants to fetch ${cut(url)}`;
  return toolName ? `${agent} wants to use ${toolName}.` : `${agent} is waiting for your permission.`;
}

/** A string field as given (not trimmed: what the person approves is exactly what will run). */
function whole(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function cut(value: string): string {
  const codePoints = Array.from(value);
  if (codePoints.length <= MAX_SUBJECT) return value;
  const rest = codePoints.length - MAX_SUBJECT;
  return `${codePoints.slice(0, MAX_SUBJECT).join('')}\n… [cut: ${rest} more characters not shown]`;
}

/** The suggestions as Claude Code sent them, when they are a non-empty list of objects. */
function readSuggestions(value: unknown): object[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const objects = value.filter(
    (entry): entry is object => typeof entry === 'object' && entry !== null && !Array.isArray(entry),
  );
  return objects.length === value.length ? objects : undefined;
}
