import type { ListNotificationsQuery, NotificationDto, Status } from '../../client/api-types.js';
import { isStatus } from '../../domain/notification.js';
import { CONNECTION_FLAGS, optionText, parseArgs, type FlagTable, type ParsedArgs } from './args.js';
import { createClient, resolveConnection, warnWhenTokenless } from './connection.js';
import { CliError } from './failure.js';
import { withHints } from './hints.js';
import { printJson, printLine } from './output.js';
import { readTypeOption } from './type-option.js';

/** Spec "List limit": the client asks for 20 unless told otherwise (the broker's own default is 100). */
const CLIENT_LIST_LIMIT = 20;

const LIST_FLAGS: FlagTable = {
  '--unresolved': { kind: 'optional-boolean', name: 'unresolved' },
  '--type': { kind: 'value', name: 'type' },
  '--status': { kind: 'value', name: 'status' },
  '--project': { kind: 'value', name: 'project' },
  '--agent': { kind: 'value', name: 'agent' },
  '--limit': { kind: 'value', name: 'limit' },
  '--json': { kind: 'switch', name: 'json' },
  ...CONNECTION_FLAGS,
};

export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(argv, LIST_FLAGS, (flag) => `unknown option '${flag}' for list.`);
  if (parsed.positionals.length > 0) {
    throw new CliError(`unexpected argument '${parsed.positionals[0]}' for list. Run 'notify help list'.`);
  }
  const query = buildListQuery(parsed);
  const connection = resolveConnection(parsed);
  warnWhenTokenless(connection);
  const notifications = await withHints(connection, () => createClient(connection).list(query));
  if (parsed.options.has('json')) return printJson(notifications);
  printLine(notifications.length === 0 ? '(no notifications)' : notifications.map(formatLine).join('\n'));
}

/**
 * Spec: `{id} [{type}/{priority}] {status} {title} ({agent})`, one line per notification. A title or
 * agent may hold CR, LF or other control characters; each run of them becomes one space here so an
 * entry never spans lines or moves the cursor. --json keeps the text exact.
 */
export function formatLine(n: NotificationDto): string {
  return `${n.id} [${n.type}/${n.priority}] ${n.status} ${oneLine(n.title)} (${oneLine(n.agent)})`;
}

function oneLine(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ');
}

function buildListQuery(parsed: ParsedArgs): ListNotificationsQuery {
  const query: ListNotificationsQuery = { limit: parseLimit(optionText(parsed, 'limit')) };
  const unresolved = parsed.options.get('unresolved');
  // Spec: --unresolved true overrides --status; false adds no filter of its own.
  if (unresolved === true || (unresolved !== undefined && parseBoolean(unresolved))) {
    query.unresolved = true;
  } else {
    const status = optionText(parsed, 'status');
    if (status !== undefined) query.status = parseStatus(status);
  }
  const type = optionText(parsed, 'type');
  if (type !== undefined) query.type = readTypeOption(type);
  const project = optionText(parsed, 'project')?.trim();
  if (project) query.project = project;
  const agent = optionText(parsed, 'agent')?.trim();
  if (agent) query.agent = agent;
  return query;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return CLIENT_LIST_LIMIT;
  // Out-of-range values are the broker's to clamp (spec "List limit"); only non-numbers are refused.
  if (!/^[+-]?\d+$/.test(text.trim())) fail('--limit must be an integer.');
  return Number(text.trim());
}

const TRUE_WORDS = ['true', 'yes', '1', 'on'];
const FALSE_WORDS = ['false', 'no', '0', 'off'];

function parseBoolean(text: string): boolean {
  const folded = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(folded)) return true;
  if (FALSE_WORDS.includes(folded)) return false;
  return fail('--unresolved must be true or false.');
}

/** Spec: the client's status filter ignores case and treats `-` and `_` as insignificant. */
function parseStatus(text: string): Status {
  const folded = text.trim().toLowerCase().replace(/[-_]/g, '');
  return isStatus(folded) ? folded : fail('--status must be active, dismissed, or resolved.');
}

function fail(message: string): never {
  throw new CliError(message);
}
