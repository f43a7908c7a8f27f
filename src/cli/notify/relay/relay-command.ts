import { CliError } from '../failure.js';
import { reportFailure } from '../report.js';
import { PROCESS_IO, type RelayIo } from './relay-io.js';

/**
 * `notify relay pair|status` (spec "Client command"). Shipped as its own bundle beside `notify`'s
 * (scripts/bundle-client.mjs), so no other command parses its code at start-up; it therefore reports
 * its own failures, with its own copies of the error classes, and hands back only the exit code.
 */
export async function runRelay(argv: string[], io: RelayIo = PROCESS_IO): Promise<number> {
  try {
    const [subcommand, ...rest] = argv;
    if (subcommand === 'pair') await (await import('./pair.js')).runPair(rest, io);
    else if (subcommand === 'status') await (await import('./status.js')).runStatus(rest, io);
    else
      throw new CliError(
        subcommand === undefined
          ? "relay requires a subcommand: pair or status. Run 'notify help relay'."
          : `unknown relay subcommand '${subcommand}'; use pair or status. Run 'notify help relay'.`,
      );
    return 0;
  } catch (error) {
    return reportFailure(error, 'relay', (text) => io.printError(text));
  }
}
