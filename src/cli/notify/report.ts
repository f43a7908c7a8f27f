import {
  BrokerTimeoutError,
  BrokerUnreachableError,
  ForeignListenerError,
  ForwardClosedError,
  HttpError,
} from '../../client/errors.js';
import { CliError, EXIT_FAILURE, EXIT_NOT_FOUND, EXIT_UNAUTHORIZED, ReportedFailure } from './failure.js';
import { foreignListenerMessage } from './foreign-listener-message.js';
import { FailureWithHints } from './hints.js';
import { printError as printToStderr } from './output.js';

/** Spec "Exit codes": the HTTP statuses that earn their own exit code, per command; others give 1. */
const HTTP_EXIT_CODES: Record<string, Record<number, number>> = {
  send: { 401: EXIT_UNAUTHORIZED, 403: EXIT_UNAUTHORIZED },
  get: { 404: EXIT_NOT_FOUND },
  resolve: { 404: EXIT_NOT_FOUND },
  dismiss: { 404: EXIT_NOT_FOUND },
};

/**
 * Prints why `command` failed to stderr (through `printError`, which the relay commands' in-process
 * tests replace), in the spec's words, and returns the exit code.
 */
export function reportFailure(
  error: unknown,
  command: string,
  printError: (text: string) => void = printToStderr,
): number {
  if (error instanceof FailureWithHints) {
    const code = reportFailure(error.failure, command, printError);
    error.hints.forEach((hint) => printError(hint));
    return code;
  }
  if (error instanceof ReportedFailure) return error.exitCode;
  if (error instanceof ForeignListenerError) {
    printError(foreignListenerMessage(error));
    return EXIT_FAILURE;
  }
  if (error instanceof CliError) {
    printError(error.message);
    return error.exitCode;
  }
  if (error instanceof HttpError) {
    printError(`Error ${error.status} ${error.statusText}: ${error.detail}`);
    return HTTP_EXIT_CODES[command]?.[error.status] ?? EXIT_FAILURE;
  }
  if (error instanceof BrokerTimeoutError) {
    printError('Notify did not respond before the request timed out.');
    return EXIT_FAILURE;
  }
  if (error instanceof ForwardClosedError) {
    printError(`the forward to the desk is not open: connect with ssh ${error.forwardName}`);
    return EXIT_FAILURE;
  }
  if (error instanceof BrokerUnreachableError) {
    if (command === 'health') {
      printError(
        `Could not reach Notify at ${error.baseUrl}: ${error.message}. Is the app running? Check the tray icon.`,
      );
    } else {
      printError(`Could not reach Notify at ${error.baseUrl}: ${error.message}`);
      printError('Is the tray app running?');
    }
    return EXIT_FAILURE;
  }
  printError(`notify: ${(error as Error).message ?? String(error)}`);
  return EXIT_FAILURE;
}
