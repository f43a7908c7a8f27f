import {
  BrokerTimeoutError,
  BrokerUnreachableError,
  ForeignListenerError,
  HttpError,
} from '../client/errors.js';

/** A failed broker call as one sentence an agent (and the person reading its log) can act on. */
export function describeFailure(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 401) {
      return 'Notify refused the token (401 unauthorized). The token in config.json changed: restart the MCP server, or check `notify token`.';
    }
    return `Notify answered ${error.status} ${error.statusText}: ${error.detail}`;
  }
  if (error instanceof BrokerUnreachableError) {
    return `Could not reach Notify at ${error.baseUrl}: ${error.message}. The person has to start it (\`notifyd\`, or \`notifyctl service install\`).`;
  }
  if (error instanceof ForeignListenerError) {
    const who =
      error.ownerUid === undefined
        ? `Notify could not find out which user owns the program listening at ${error.baseUrl}`
        : `The program listening at ${error.baseUrl} belongs to another user (uid ${error.ownerUid})`;
    return `${who}, so nothing was sent to it (it could be waiting for the token). The person has to stop that program, or run Notify on another port.`;
  }
  if (error instanceof BrokerTimeoutError) return 'Notify did not respond before the request timed out.';
  return `Notify call failed: ${(error as Error).message ?? String(error)}`;
}
