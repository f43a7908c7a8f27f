import { HttpError } from '../../client/errors.js';
import { NotifyClient } from '../../client/notify-client.js';
import { resolveConnection } from '../notify/connection.js';
import type { ParsedArgs } from '../notify/args.js';
import { lastValue, UsageError, type CtlArgs } from './ctl-args.js';

export const CONNECTION_VALUE_FLAGS = ['--port', '--token'];
const TIMEOUT_MS = 20_000;

/** A failed API call: the broker's `{error}` message, printed as `Error {code} {Status}: {error}`. */
export class ApiError extends Error {
  override name = 'ApiError';
}

/**
 * Calls the broker with the connection rules of the notify client (--port, --token, env, config),
 * through NotifyClient, so the checks every client call gets (the listener's owner) apply here too.
 */
export async function callApi(args: CtlArgs, method: string, path: string, body?: unknown): Promise<unknown> {
  const options = new Map<string, string | true>();
  for (const flag of ['port', 'token']) {
    const value = lastValue(args, `--${flag}`);
    if (value !== undefined) options.set(flag, value);
  }
  const parsed: ParsedArgs = { options, positionals: [] };
  const connection = resolveConnection(parsed);
  const client = new NotifyClient({
    baseUrl: connection.baseUrl,
    timeoutMs: TIMEOUT_MS,
    ...(connection.token !== undefined && { token: connection.token }),
  });
  try {
    return await client.request(method, path, body);
  } catch (error) {
    if (error instanceof HttpError)
      throw new ApiError(`Error ${error.status} ${error.statusText}: ${error.detail}`);
    throw error;
  }
}

/** Runs a management subcommand, mapping failures to one line on stderr and exit code 1. */
export async function runCtl(work: () => Promise<void>, help: string): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`notifyctl: ${error.message}\n\n${help}`);
    } else if ((error as { quiet?: boolean }).quiet) {
      // Already said on stdout.
    } else if (error instanceof ApiError) {
      console.error(error.message);
    } else {
      console.error(`notifyctl: ${(error as Error).message}`);
    }
    return 1;
  }
}

export function print(args: CtlArgs, value: unknown, lines: () => string[]): void {
  if (args.switches.has('--json')) console.log(JSON.stringify(value, null, 2));
  else console.log(lines().join('\n'));
}

export function requireId(args: CtlArgs, what: string): string {
  const id = args.positionals[1];
  if (id === undefined) throw new UsageError(`${args.positionals[0]} needs the ${what} id`);
  return id;
}
