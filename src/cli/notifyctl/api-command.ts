import type { NotifyClient } from '../../client/notify-client.js';
import { CONNECTION_FLAGS, parseArgs, type FlagTable, type ParsedArgs } from '../notify/args.js';
import { createClient, resolveConnection, warnWhenTokenless } from '../notify/connection.js';
import { CliError } from '../notify/failure.js';
import { printError, printLine } from '../notify/output.js';
import { reportNotifyctlFailure } from './failure.js';

/** One subcommand of a notifyctl command group (`settings get`, `sounds import`, ...). */
export interface Subcommand {
  name: string;
  /** Arguments after the subcommand's name, for the usage text. */
  synopsis: string;
  summary: string;
  flags?: FlagTable;
  /** Prints the result (JSON when parsed has `json`) and resolves to the exit code. */
  run(client: NotifyClient, parsed: ParsedArgs): Promise<number>;
}

export const JSON_FLAG: FlagTable = { '--json': { kind: 'switch', name: 'json' } };

export function groupUsage(group: string, summary: string, subcommands: readonly Subcommand[]): string {
  const width = Math.max(...subcommands.map((sub) => `${sub.name} ${sub.synopsis}`.trim().length)) + 2;
  return [
    `notifyctl ${group}: ${summary}`,
    '',
    'Usage:',
    ...subcommands.map(
      (sub) => `  notifyctl ${group} ${`${sub.name} ${sub.synopsis}`.trim().padEnd(width)} ${sub.summary}`,
    ),
    '',
    'Every subcommand takes --port <n> and --token <t> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json)',
    'and --json, which prints the API answer as JSON instead of text. See docs/notifyctl-presentation.md.',
  ].join('\n');
}

/**
 * Runs `notifyctl <group> <subcommand> ...`: parses the options, connects with the token from
 * config.json (or --token, NOTIFY_TOKEN), and turns every failure into a message and an exit code.
 */
export async function runGroup(
  group: string,
  summary: string,
  subcommands: readonly Subcommand[],
  argv: string[],
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? printError : printLine)(groupUsage(group, summary, subcommands));
    return name === undefined ? 1 : 0;
  }
  const sub = subcommands.find((candidate) => candidate.name === name);
  if (!sub) {
    printError(`notifyctl ${group}: unknown subcommand '${name}'. Run 'notifyctl ${group} --help'.`);
    return 1;
  }
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      printLine(groupUsage(group, summary, [sub]));
      return 0;
    }
    const parsed = parseArgs(
      rest,
      { ...CONNECTION_FLAGS, ...JSON_FLAG, ...sub.flags },
      (flag) => `unknown option '${flag}' for ${group} ${sub.name}. Run 'notifyctl ${group} --help'.`,
    );
    const connection = resolveConnection(parsed);
    warnWhenTokenless(connection);
    return await sub.run(createClient(connection), parsed);
  } catch (error) {
    return reportNotifyctlFailure(error);
  }
}

/** The positional arguments a subcommand needs, exactly; otherwise a usage message. */
export function positionals(parsed: ParsedArgs, count: number, usage: string): string[] {
  if (parsed.positionals.length !== count) throw new CliError(`Usage: ${usage}`);
  return parsed.positionals;
}
