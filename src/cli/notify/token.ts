import { resolvePaths } from '../../config/paths.js';
import { looksLikeOption } from './args.js';
import { readClientConfig } from './client-config.js';
import { NotifyClient } from '../../client/notify-client.js';
import { DEFAULT_PORT } from './connection.js';
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
  if (read.state === 'unreadable') {
    throw new CliError(
      `Cannot read the token: ${read.problem}. Fix the file (notifyd refuses to start with it too), then run 'notify token' again.`,
    );
  }
  if (read.state === 'missing') {
    throw new CliError(
      `No token yet: Notify creates one when it runs for the first time. Start it once (notifyd), then run 'notify token' again. Config file: ${file}`,
    );
  }
  const token = read.config.authToken;
  if (token === undefined) throw new CliError(await lostTokenMessage(file, read.config.port ?? DEFAULT_PORT));
  printLine(token);
}

/**
 * config.json exists but holds no authToken: someone removed it. A running broker keeps the token it
 * loaded and does not write the file again, so only a restart puts a token back.
 */
async function lostTokenMessage(file: string, port: number): Promise<string> {
  const running = await new NotifyClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 })
    .liveness()
    .then(
      () => true,
      () => false,
    );
  return running
    ? `No token in ${file}: its authToken was removed while Notify was running on port ${port}. ` +
        `The running broker still uses the token it loaded at start, which no file holds now. ` +
        `Restart notifyd (it writes a new token into the file), then run 'notify token' again.`
    : `No token in ${file}: the file exists but has no authToken. ` +
        `Start Notify (notifyd): it writes a new token into the file. Then run 'notify token' again.`;
}
