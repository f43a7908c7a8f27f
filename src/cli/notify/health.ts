import { HttpError } from '../../client/errors.js';
import { CONNECTION_FLAGS, parseArgs } from './args.js';
import { createClient, resolveConnection } from './connection.js';
import { CliError } from './failure.js';
import { printJson } from './output.js';

/**
 * Spec "health": with a token, the detailed GET /v1/health, falling back to the open GET /health on
 * 401 (a stale token still shows the broker is alive); without one, GET /health only.
 */
export async function run(argv: string[]): Promise<void> {
  const parsed = parseArgs(argv, CONNECTION_FLAGS, (flag) => `unknown option '${flag}' for health.`);
  if (parsed.positionals.length > 0) {
    throw new CliError(`unexpected argument '${parsed.positionals[0]}' for health. Usage: notify health.`);
  }
  const connection = resolveConnection(parsed);
  const client = createClient(connection);
  if (connection.token === undefined) return printJson(await client.liveness());
  try {
    printJson(await client.health());
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 401)) throw error;
    printJson(await client.liveness());
  }
}
