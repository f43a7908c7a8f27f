import type { NotifyClient } from '../../client/notify-client.js';
import {
  CONNECTION_FLAGS,
  looksLikeOption,
  parseArgs,
  type FlagTable,
  type ParsedArgs,
} from '../notify/args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../notify/connection.js';
import { CliError } from '../notify/failure.js';
import { printError, printJson, printLine } from '../notify/output.js';
import { withHints } from '../notify/hints.js';
import type { NotifyctlCommand } from './command.js';
import { reportNotifyctlFailure } from './failure.js';

/** One subcommand of a notifyctl command group (`settings show`, `sounds import`, ...). */
export interface Subcommand {
  name: string;
  /** Older names that still work, so scripts written against them keep running; usage shows `name`. */
  aliases?: readonly string[];
  /** Arguments after the subcommand's name, for the usage text. */
  synopsis: string;
  summary: string;
  flags?: FlagTable;
  /** How long to wait for the broker's answer, when longer than the client's default. */
  timeoutMs?: number;
  /** Prints the result (JSON when parsed has `json`) and resolves to the exit code. */
  run(client: NotifyClient, parsed: ParsedArgs): Promise<number>;
}

export const JSON_FLAG: FlagTable = { '--json': { kind: 'switch', name: 'json' } };

/** The widest line help prints: a usage line wider than this wraps. */
const HELP_WIDTH = 100;

/** `text` in lines of at most HELP_WIDTH, split between words: the first line after `first`, the rest after `rest`. */
function wrapWords(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const indent = lines.length === 0 ? first : rest;
    if (line !== indent && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = rest + word;
    } else line = line === indent ? line + word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** `notes` are lines the subcommand list cannot say (what options mean, where secrets come from). */
export function groupUsage(
  group: string,
  summary: string,
  subcommands: readonly Subcommand[],
  notes: readonly string[] = [],
): string {
  const width = Math.max(...subcommands.map((sub) => `${sub.name} ${sub.synopsis}`.trim().length)) + 2;
  const table = subcommands.map(
    (sub) => `  notifyctl ${group} ${`${sub.name} ${sub.synopsis}`.trim().padEnd(width)} ${sub.summary}`,
  );
  // A synopsis too long for one terminal line: each subcommand wrapped, its summary under it.
  const lines = table.every((line) => line.length <= HELP_WIDTH)
    ? table
    : subcommands.flatMap((sub) => [
        ...wrapWords(`notifyctl ${group} ${sub.name} ${sub.synopsis}`.trim(), '  ', '      '),
        ...wrapWords(sub.summary, '      ', '      '),
      ]);
  return [
    `notifyctl ${group}: ${summary}`,
    '',
    'Usage:',
    ...lines,
    ...(notes.length > 0 ? ['', ...notes] : []),
    '',
    'Every subcommand takes --port <n> and --token <t> (default: NOTIFY_PORT / NOTIFY_TOKEN,',
    'else config.json) and --json, which prints the API answer as JSON instead of text.',
    'See docs/notifyctl.md.',
  ].join('\n');
}

/**
 * A command made of subcommands: `summary` is its line in `notifyctl --help`, `description` opens its
 * own usage; `--help` shows every subcommand, `<subcommand> --help` that one.
 */
export function groupCommand(spec: {
  name: string;
  summary: string;
  description: string;
  subcommands: readonly Subcommand[];
  notes?: readonly string[];
  run?: (argv: string[]) => Promise<number>;
}): NotifyctlCommand {
  const { name, description, subcommands, notes = [] } = spec;
  return {
    name,
    summary: spec.summary,
    subcommands,
    help: (sub) =>
      groupUsage(
        name,
        description,
        sub === undefined ? subcommands : subcommands.filter((part) => part.name === sub),
        notes,
      ),
    run: spec.run ?? ((argv) => runGroup(name, description, subcommands, argv, notes)),
  };
}

/**
 * Runs `notifyctl <group> <subcommand> ...`: parses the options, connects with the token from
 * config.json (or --token, NOTIFY_TOKEN), and turns every failure into a message and an exit code.
 * Options may come before the subcommand's name (`notifyctl providers --port 4000 list`).
 */
export async function runGroup(
  group: string,
  summary: string,
  subcommands: readonly Subcommand[],
  argv: string[],
  notes: readonly string[] = [],
): Promise<number> {
  const at = subcommandAt(
    argv,
    Object.assign({ ...CONNECTION_FLAGS }, ...subcommands.map((sub) => sub.flags)),
  );
  const name = at < 0 ? undefined : argv[at]!;
  const rest = at < 0 ? argv : [...argv.slice(0, at), ...argv.slice(at + 1)];
  if (name === undefined || name === 'help') {
    const help = name === 'help' || rest.includes('--help') || rest.includes('-h');
    (help ? printLine : printError)(groupUsage(group, summary, subcommands, notes));
    return help ? 0 : 1;
  }
  const sub = subcommands.find(
    (candidate) => candidate.name === name || candidate.aliases?.includes(name) === true,
  );
  if (!sub) {
    printError(`notifyctl ${group}: unknown subcommand '${name}'. Run 'notifyctl ${group} --help'.`);
    return 1;
  }
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      printLine(groupUsage(group, summary, [sub], notes));
      return 0;
    }
    const parsed = parseArgs(
      rest,
      { ...CONNECTION_FLAGS, ...JSON_FLAG, ...sub.flags },
      (flag) => `unknown option '${flag}' for ${group} ${name}. Run 'notifyctl ${group} --help'.`,
    );
    const connection = resolveConnection(parsed);
    warnWhenTokenless(connection);
    return await withHints(connection, () => sub.run(createClient(connection, sub.timeoutMs), parsed));
  } catch (error) {
    return reportNotifyctlFailure(error);
  }
}

/**
 * The index of the subcommand's name: the first word that is neither an option nor the value of one
 * (`table` holds every subcommand's flags, to tell which take a value); -1 when there is none.
 */
function subcommandAt(argv: readonly string[], table: FlagTable): number {
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') return -1;
    if (!looksLikeOption(word)) return index;
    if (word.startsWith('--') && word.includes('=')) continue;
    const kind = table[word]?.kind;
    const next = argv[index + 1];
    if (kind === 'value' || kind === 'repeated') index++;
    else if (kind === 'optional-boolean' && next !== undefined && !looksLikeOption(next)) index++;
  }
  return -1;
}

/** The positional arguments a subcommand needs, exactly; otherwise a usage message. */
export function positionals(parsed: ParsedArgs, count: number, usage: string): string[] {
  if (parsed.positionals.length !== count) throw new CliError(`Usage: ${usage}`);
  return parsed.positionals;
}

/** Prints the API answer as JSON with --json, else the lines that describe it; exit 0. */
export function printResult(parsed: ParsedArgs, value: unknown, lines: () => readonly string[]): number {
  if (parsed.options.has('json')) printJson(value);
  else printLine(lines().join('\n'));
  return 0;
}

/**
 * `notifyctl <group> <name> <id>`: one call about the item with that id, its answer printed (as JSON
 * with --json, else the lines that describe it).
 */
export function oneItemSubcommand<T>(
  group: string,
  name: string,
  summary: string,
  call: (client: NotifyClient, id: string) => Promise<T>,
  lines: (answer: T) => readonly string[],
): Subcommand {
  return {
    name,
    synopsis: '<id>',
    summary,
    run: async (client, parsed) => {
      const [id] = positionals(parsed, 1, `notifyctl ${group} ${name} <id>`);
      const answer = await call(client, id!);
      return printResult(parsed, answer, () => lines(answer));
    },
  };
}

/**
 * `notifyctl <group> remove <id>`: deletes the item at `itemPath(id)`; prints `removed(id)`, or with
 * --json `{ "removed": id }` (a DELETE answers no body).
 */
export function removeSubcommand(
  group: string,
  summary: string,
  itemPath: (id: string) => string,
  removed: (id: string) => string,
): Subcommand {
  return oneItemSubcommand(
    group,
    'remove',
    summary,
    async (client, id) => {
      await client.request('DELETE', itemPath(id));
      return { removed: id };
    },
    (answer) => [removed(answer.removed)],
  );
}

/** `notifyctl <group> list`: every item the path answers, one line each, or `none` when there are none. */
export function listSubcommand<T>(
  group: string,
  summary: string,
  path: string,
  line: (item: T) => string,
  none: string,
): Subcommand {
  return {
    name: 'list',
    synopsis: '',
    summary,
    run: async (client, parsed) => {
      positionals(parsed, 0, `notifyctl ${group} list [--json]`);
      const items = await client.request<T[]>('GET', path);
      return printResult(parsed, items, () => (items.length ? items.map(line) : [none]));
    },
  };
}
