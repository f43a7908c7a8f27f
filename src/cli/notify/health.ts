import { HttpError } from '../../client/errors.js';
import { CONNECTION_FLAGS, parseArgs } from './args.js';
import { createClient, resolveConnection } from './connection.js';
import { CliError } from './failure.js';
import { refusedTokenHint, tokenOrigin, withHints } from './hints.js';
import { printError, printJson } from './output.js';

/**
 * Spec "health": with a token, the detailed GET /v1/health, falling back to the open GET /health on
 * 401 (a stale token still shows the broker is alive); without one, GET /health only. The fallback
 * says on stderr that the token was refused: a bare {"status":"ok"} would hide it.
 */
export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(argv, CONNECTION_FLAGS, (flag) => `unknown option '${flag}' for health.`);
  if (parsed.positionals.length > 0) {
    throw new CliError(`unexpected argument '${parsed.positionals[0]}' for health. Usage: notify health.`);
  }
  const connection = resolveConnection(parsed);
  const client = createClient(connection);
  if (connection.token === undefined) return printJson(await withHints(connection, () => client.liveness()));
  await withHints(connection, async () => {
    try {
      printJson(await client.health());
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 401)) throw error;
      printError(
        `Warning: the broker refused the token from ${tokenOrigin(connection)} (401 Unauthorized); showing the open /health instead.`,
      );
      printError(refusedTokenHint(connection));
      printJson(await client.liveness());
    }
  });
}
