import { BrokerUnreachableError, HttpError } from '../../client/errors.js';
import type { Connection } from './connection.js';

/**
 * The spec's failure messages say what went wrong; these lines, printed after them on the same
 * stream, say what to do about it. Each starts with "Hint:" so scripts can tell them apart.
 */
export class FailureWithHints extends Error {
  override name = 'FailureWithHints';
  constructor(
    readonly failure: unknown,
    readonly hints: string[],
  ) {
    super((failure as Error).message);
  }
}

/** Runs the broker calls of a command; a failure that a hint can help with carries its hints out. */
export async function withHints<T>(connection: Connection, calls: () => Promise<T>): Promise<T> {
  try {
    return await calls();
  } catch (error) {
    const hints = hintsFor(error, connection);
    throw hints.length > 0 ? new FailureWithHints(error, hints) : error;
  }
}

export function hintsFor(error: unknown, connection: Connection): string[] {
  if (error instanceof HttpError && error.status === 401) return [refusedTokenHint(connection)];
  if (error instanceof BrokerUnreachableError) return [START_HINT];
  return [];
}

export const START_HINT =
  "Hint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.";

/** Names where the refused token came from and how to get the broker's own. */
export function refusedTokenHint(connection: Connection): string {
  const { configFile, port } = connection;
  switch (connection.tokenSource) {
    case 'flag':
      return `Hint: the token given with --token is not the broker's. 'notify token' prints the one in ${configFile}; leave --token out to use it.`;
    case 'env':
      return `Hint: the token in NOTIFY_TOKEN is not the broker's. 'notify token' prints the one in ${configFile}; unset NOTIFY_TOKEN to use it.`;
    case 'config':
      return (
        `Hint: the token in ${configFile} is not the one of the broker on port ${port}, so that broker ` +
        `reads another config file (started with another HOME or XDG_CONFIG_HOME?). Pass its token with ` +
        `--token or NOTIFY_TOKEN ('notify token' run with that HOME prints it), or restart notifyd as yourself.`
      );
    case 'none':
      // 'notify token' refuses a broken config.json, so pointing there would lead nowhere.
      if (connection.configProblem !== undefined) {
        return `Hint: no token was sent because ${configFile} cannot be used (the warning above says why); fix that file, then try again, or pass the broker's token with --token or NOTIFY_TOKEN.`;
      }
      return `Hint: no token was sent. 'notify token' prints the broker's token from ${configFile}; pass it with --token or NOTIFY_TOKEN if the file is elsewhere.`;
  }
}

/** Where the token came from, in the words a person typed or can find. */
export function tokenOrigin(connection: Connection): string {
  return connection.tokenSource === 'flag'
    ? '--token'
    : connection.tokenSource === 'env'
      ? 'NOTIFY_TOKEN'
      : connection.configFile;
}
