import { sendRequest } from '../../client/transport.js';
import { resolveConnection } from '../notify/connection.js';
import type { ParsedArgs } from '../notify/args.js';
import { lastValue, UsageError, type CtlArgs } from './ctl-args.js';

export const CONNECTION_VALUE_FLAGS = ['--port', '--token'];
const TIMEOUT_MS = 20_000;

/** A failed API call: the broker's `{error}` message, printed as `Error {code} {Status}: {error}`. */
export class ApiError extends Error {
  override name = 'ApiError';
}

/** Calls the broker with the connection rules of the notify client (--port, --token, env, config). */
export async function callApi(args: CtlArgs, method: string, path: string, body?: unknown): Promise<unknown> {
  const options = new Map<string, string | true>();
  for (const flag of ['port', 'token']) {
    const value = lastValue(args, `--${flag}`);
    if (value !== undefined) options.set(flag, value);
  }
  const parsed: ParsedArgs = { options, positionals: [] };
  const connection = resolveConnection(parsed);
  const response = await sendRequest({
    method,
    url: new URL(path, connection.baseUrl),
    headers: {
      ...(connection.token !== undefined && { authorization: `Bearer ${connection.token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    timeoutMs: TIMEOUT_MS,
  });
  if (response.status >= 400) {
    let message = response.body || '(empty response)';
    try {
      message = (JSON.parse(response.body) as { error?: string }).error ?? message;
    } catch {
      // Not JSON: the raw body is the message.
    }
    throw new ApiError(`Error ${response.status} ${response.statusText}: ${message}`);
  }
  return response.body ? JSON.parse(response.body) : undefined;
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
