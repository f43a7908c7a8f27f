import type { NotifyClient } from '../../client/notify-client.js';
import { CONNECTION_FLAGS, parseArgs, type FlagTable, type ParsedArgs } from '../notify/args.js';
import { createClient, resolveConnection, warnWhenTokenless, type Connection } from '../notify/connection.js';
import { withHints } from '../notify/hints.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';
import { reportNotifyctlFailure } from './failure.js';

export interface BrokerCommandContext {
  parsed: ParsedArgs;
  connection: Connection;
  client: NotifyClient;
  io: CommandIo;
}

/**
 * The frame of a notifyctl command that talks to the broker: `--port` and `--token` as `notify` reads
 * them, the command's own flags, and failures reported as every notifyctl command reports them (a refused token exits 2).
 */
export async function runBrokerCommand(
  name: string,
  argv: string[],
  flags: FlagTable,
  body: (context: BrokerCommandContext) => Promise<number>,
  io: CommandIo = PROCESS_COMMAND_IO,
): Promise<number> {
  try {
    const parsed = parseArgs(
      argv,
      { ...CONNECTION_FLAGS, ...flags },
      (flag) => `unknown option '${flag}' for ${name}. Run 'notifyctl --help'.`,
    );
    const connection = resolveConnection(parsed, io.env);
    warnWhenTokenless(connection, (text) => io.printError(text));
    return await withHints(connection, () =>
      body({ parsed, connection, client: createClient(connection), io }),
    );
  } catch (error) {
    return reportNotifyctlFailure(error, (text) => io.printError(text));
  }
}
