import { statSync } from 'node:fs';
import { resolvePaths } from '../../config/paths.js';
import { DataFolderInUseError, lockDataFolder } from '../../store/data-lock.js';
import { recoverDatabase, RecoveryTimeLimitError } from '../../store/recover.js';
import type { NotifyctlCommand } from './command.js';
import { describeRecovery } from './db-recovery-report.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';

/** The time limit of a small database; a large one gets a second more per BYTES_PER_EXTRA_SECOND. */
const BASE_TIME_LIMIT_SECONDS = 60;
const BYTES_PER_EXTRA_SECOND = 1024 * 1024;

const USAGE = `Usage: notifyctl db recover [--time-limit <seconds>]

Copies every row that can still be read from a damaged database (notifications, providers and
their secrets, routes, the outbox and its intake, recorded choices) into a new one, says table by
table what was recovered and what could not be, keeps the damaged file beside it as
notify.db.damaged-<time>, and puts the new one in its place. Stop the broker first.

  --time-limit <seconds>  stop, changing nothing, if the recovery has not finished by then (default:
                          ${BASE_TIME_LIMIT_SECONDS} s, plus 1 s for every ${BYTES_PER_EXTRA_SECOND / 1024 / 1024} MiB of the database)

Exit codes: 0 every row was recovered; 1 nothing was changed (the message says why); 2 the new
database is in place but some rows were lost (listed above; they remain in the damaged file).`;

const RECOVERED_WITH_LOSSES = 2;

/** `notifyctl db recover`: what to do when notifyd refuses to start on a damaged database. */
export const dbCommand: NotifyctlCommand = {
  name: 'db',
  summary: 'recover: save what can be read from a damaged database',
  help: () => USAGE,
  subcommands: [{ name: 'recover', flags: { '--time-limit': { kind: 'value', name: 'time-limit' } } }],
  run: (args) => runDb(args),
};

/** `notifyctl db <args>`, resolving to its exit code; `io` is where it reads HOME and writes. */
export async function runDb(args: string[], io: CommandIo = PROCESS_COMMAND_IO): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.printLine(USAGE);
    return 0;
  }
  const parsed = parseRecoverArgs(args);
  if (typeof parsed === 'string') {
    io.printError(`notifyctl db: ${parsed}. Run 'notifyctl db --help'.`);
    return 1;
  }
  const paths = resolvePaths(io.env);
  let lock;
  try {
    lock = lockDataFolder(paths.dataDir, 'notifyctl db recover');
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) throw error;
    io.printError(`notifyctl db recover: ${error.message}`);
    return 1;
  }
  try {
    const file = paths.databaseFile;
    const timeLimitMs = (parsed.timeLimitSeconds ?? defaultTimeLimitSeconds(file)) * 1000;
    const { lines, lost } = describeRecovery(await recoverDatabase(file, timeLimitMs), file);
    for (const line of lines) io.printLine(line);
    if (!lost) return 0;
    io.printError(
      'notifyctl db recover: some rows could not be recovered (listed above); the damaged file still holds them',
    );
    return RECOVERED_WITH_LOSSES;
  } catch (error) {
    io.printError(`notifyctl db recover: ${(error as Error).message}`);
    if (error instanceof RecoveryTimeLimitError)
      io.printError(`A large database can take longer: run 'notifyctl db recover --time-limit <seconds>'.`);
    return 1;
  } finally {
    lock.release();
  }
}

function parseRecoverArgs(args: string[]): { timeLimitSeconds?: number } | string {
  if (args[0] !== 'recover') return `expected 'recover'`;
  const [option, value, ...extra] = args.slice(1);
  if (option === undefined) return {};
  if (option !== '--time-limit') return `unexpected argument '${option}'`;
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    return `--time-limit expects a number of seconds greater than 0${value === undefined ? '' : `, got '${value}'`}`;
  if (extra.length > 0) return `unexpected argument '${extra[0]}'`;
  return { timeLimitSeconds: Number(value) };
}

/** The time limit when none is given, as the help says: 60 s, plus 1 s for every MiB of the database. */
export function defaultTimeLimitSeconds(file: string): number {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // recoverDatabase says what is wrong with the file.
  }
  return BASE_TIME_LIMIT_SECONDS + Math.ceil(size / BYTES_PER_EXTRA_SECOND);
}
