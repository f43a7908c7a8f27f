import { resolvePaths } from '../../config/paths.js';
import { looksLikeOption } from './args.js';
import { readClientConfig } from './client-config.js';
import { CliError } from './failure.js';
import { printLine } from './output.js';

/** Spec "token": config.json's authToken as is; NOTIFY_TOKEN is deliberately not consulted. */
export async function run(argv: string[]): Promise<void> {
  const [extra] = argv;
  if (extra !== undefined) {
    throw new CliError(
      looksLikeOption(extra)
        ? `unknown option '${extra}' for token. Usage: notify token.`
        : `unexpected argument '${extra}' for token. Usage: notify token.`,
    );
  }
  const file = resolvePaths().configFile;
  const read = readClientConfig(file);
  if (read.state === 'unreadable') throw new CliError(`Cannot read the token: ${read.problem}.`);
  const token = read.state === 'found' ? read.config.authToken : undefined;
  if (token === undefined) {
    throw new CliError(
      `No token yet: Notify creates one when it runs for the first time. Start it once (notifyd), then run 'notify token' again. Config file: ${file}`,
    );
  }
  printLine(token);
}
