import {
  BrokerTimeoutError,
  BrokerUnreachableError,
  ForeignListenerError,
  ForwardClosedError,
  HttpError,
} from '../../client/errors.js';
import { CliError, EXIT_FAILURE, EXIT_NOT_FOUND, EXIT_UNAUTHORIZED } from '../notify/failure.js';
import { foreignListenerMessage } from '../notify/foreign-listener-message.js';
import { FailureWithHints } from '../notify/hints.js';
import { printError } from '../notify/output.js';

/**
 * Prints why a notifyctl command failed, in the words `notify` uses, then the hints `notify` would
 * give (one builder for both, src/cli/notify/hints.ts); returns the exit code
 * (docs/notifyctl-presentation.md "Exit codes").
 */
export function reportNotifyctlFailure(error: unknown, print: (text: string) => void = printError): number {
  if (error instanceof FailureWithHints) {
    const code = reportNotifyctlFailure(error.failure, print);
    error.hints.forEach((hint) => print(hint));
    return code;
  }
  if (error instanceof ForeignListenerError) {
    print(foreignListenerMessage(error));
    return EXIT_FAILURE;
  }
  if (error instanceof CliError) {
    print(error.message);
    return error.exitCode;
  }
  if (error instanceof HttpError) {
    print(`Error ${error.status} ${error.statusText}: ${error.detail}`);
    if (error.status === 401 || error.status === 403) return EXIT_UNAUTHORIZED;
    if (error.status === 404) return EXIT_NOT_FOUND;
    return EXIT_FAILURE;
  }
  if (error instanceof BrokerTimeoutError) {
    print('Notify did not respond before the request timed out.');
    return EXIT_FAILURE;
  }
  if (error instanceof ForwardClosedError) {
    print(`the forward to the desk is not open: connect with ssh ${error.forwardName}`);
    return EXIT_FAILURE;
  }
  if (error instanceof BrokerUnreachableError) {
    print(`Could not reach Notify at ${error.baseUrl}: ${error.message}`);
    // notifyctl talks to notifyd, which may run without any tray (a service, a headless box).
    print('Is notifyd running?');
    return EXIT_FAILURE;
  }
  print(`notifyctl: ${(error as Error).message ?? String(error)}`);
  return EXIT_FAILURE;
}
