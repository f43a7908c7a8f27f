import { NotifyClient } from '../../client/notify-client.js';
import { resolveConnection } from '../notify/connection.js';
import type { ParsedArgs } from '../notify/args.js';
import { EXIT_FAILURE } from '../notify/failure.js';
import { lastValue, UsageError, type CtlArgs } from './ctl-args.js';
import { reportNotifyctlFailure } from './failure.js';

export const CONNECTION_VALUE_FLAGS = ['--port', '--token'];
const TIMEOUT_MS = 20_000;

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
  return client.request(method, path, body);
}

/**
 * Runs a management subcommand and reports a failure on stderr as every notifyctl command does
 * (docs/notifyctl.md): a refused token exits 2 with its hint, an unknown id (404) exits 3, an
 * unreachable broker is told in notify's words; any other failure is one line and exit 1.
 */
export async function runCtl(work: () => Promise<void>, help: string): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`notifyctl: ${error.message}\n\n${help}`);
      return EXIT_FAILURE;
    }
    // Already said on stdout.
    if ((error as { quiet?: boolean }).quiet) return EXIT_FAILURE;
    return reportNotifyctlFailure(error);
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
