import type { CreateNotificationBody } from '../../client/api-types.js';
import { normalizePriority } from '../../domain/priority.js';
import { characterCount } from '../../domain/text.js';
import { CONNECTION_FLAGS, optionText, type FlagTable, type ParsedArgs } from './args.js';
import { CliError } from './failure.js';
import { readTypeOption } from './type-option.js';

export const SEND_FLAGS: FlagTable = {
  '--title': { kind: 'value', name: 'title' },
  '--message': { kind: 'value', name: 'message' },
  '--msg': { kind: 'value', name: 'message' },
  '--type': { kind: 'value', name: 'type' },
  '--priority': { kind: 'value', name: 'priority' },
  '--agent': { kind: 'value', name: 'agent' },
  '--agent-instance': { kind: 'value', name: 'agentInstance' },
  '--project': { kind: 'value', name: 'project' },
  '--key': { kind: 'value', name: 'key' },
  '--cwd': { kind: 'value', name: 'cwd' },
  '--pid': { kind: 'value', name: 'pid' },
  ...CONNECTION_FLAGS,
};

const PRIORITY_MESSAGE = '--priority must be low, normal, high, or critical';

/** Spec "send" limits of the optional text flags, by field of the request body. */
const OPTIONAL_TEXT = [
  ['agentInstance', '--agent-instance', 100],
  ['project', '--project', 200],
  ['key', '--key', 100],
] as const;

export interface SendEnvironment {
  agent: string | undefined;
  cwd: string;
}

/**
 * Spec "send": flags first, positionals fill what the flags left open (a single positional with no
 * --title or --message is both); text is trimmed and held to the API's limits before any request.
 */
export function buildSendBody(parsed: ParsedArgs, environment: SendEnvironment): CreateNotificationBody {
  const { title, message } = titleAndMessage(parsed);
  const body: CreateNotificationBody = {
    title: requiredText('--title', title, 200),
    message: requiredText('--message', message, 4000),
    agent: optionalText('--agent', optionText(parsed, 'agent'), 100) ?? defaultAgent(environment.agent),
  };
  const type = optionText(parsed, 'type');
  if (type !== undefined) body.type = readTypeOption(type);
  const priority = optionText(parsed, 'priority');
  if (priority !== undefined) body.priority = normalizePriority(priority) ?? fail(PRIORITY_MESSAGE);
  for (const [field, flag, max] of OPTIONAL_TEXT) {
    setIfPresent(body, field, optionalText(flag, optionText(parsed, field), max));
  }
  const cwd = optionalText('--cwd', optionText(parsed, 'cwd'), 1024) ?? defaultCwd(environment.cwd);
  setIfPresent(body, 'cwd', cwd);
  setIfPresent(body, 'pid', parsePid(optionText(parsed, 'pid')));
  return body;
}

function titleAndMessage(parsed: ParsedArgs): { title?: string; message?: string } {
  const queue = [...parsed.positionals];
  let title = optionText(parsed, 'title');
  let message = optionText(parsed, 'message');
  if (title === undefined && message === undefined && queue.length === 1) {
    return { title: queue[0], message: queue[0] };
  }
  if (title === undefined) title = queue.shift();
  if (message === undefined) message = queue.shift();
  if (queue.length > 0) {
    fail(
      `unexpected argument '${queue[0]}' for send: give at most a title and a message. Run 'notify help send'.`,
    );
  }
  return { title, message };
}

function requiredText(flag: '--title' | '--message', value: string | undefined, max: number): string {
  if (value === undefined) fail(MISSING[flag]);
  const text = value.trim();
  if (text === '') fail(`${flag} must not be empty.`);
  if (characterCount(text) > max) fail(`${flag} must be at most ${max} characters.`);
  return text;
}

const MISSING = {
  '--title': `send requires a title: notify "Title" ["Message"], or notify send --title <text> --message <text>.`,
  '--message': 'send requires a message: add --message <text>, or give it as an argument after the title.',
};

/** An empty optional value (say `--project "$UNSET"`) reads as absent, so its default applies. */
function optionalText(flag: string, value: string | undefined, max: number): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (characterCount(text) > max) fail(`${flag} must be at most ${max} characters.`);
  return text;
}

function defaultAgent(fromEnvironment: string | undefined): string {
  return optionalText('NOTIFY_AGENT', fromEnvironment, 100) ?? 'cli';
}

/** The working directory is a hint, not a requirement: one past the limit is left out, not an error. */
function defaultCwd(cwd: string): string | undefined {
  return cwd !== '' && characterCount(cwd) <= 1024 ? cwd : undefined;
}

/** Spec: an invalid --pid becomes absent. */
function parsePid(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  const pid = Number(text);
  return Number.isSafeInteger(pid) ? pid : undefined;
}

function setIfPresent<K extends keyof CreateNotificationBody>(
  body: CreateNotificationBody,
  field: K,
  value: CreateNotificationBody[K] | undefined,
): void {
  if (value !== undefined) body[field] = value;
}

function fail(message: string): never {
  throw new CliError(message);
}
