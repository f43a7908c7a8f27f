import { socketOf } from '../../client/transport.js';
import type { NotificationDto } from '../../client/api-types.js';
import { BrokerUnreachableError, HttpError } from '../../client/errors.js';
import { openEventStream, type OpenStream } from '../../client/event-stream.js';
import type { NotifyClient } from '../../client/notify-client.js';
import { CliError, EXIT_NOT_FOUND } from '../notify/failure.js';
import { optionText } from '../notify/args.js';
import { jsonText } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';
import { runBrokerCommand, type BrokerCommandContext } from './broker-command.js';

/** Exit code when the notification is still active at the deadline, as timeout(1) does. */
export const EXIT_TIMED_OUT = 124;
/** Exit code when the person dismissed the notification: never success, so `wait && deploy` holds. */
export const EXIT_DISMISSED = 4;
/** Exit code of an answer other than --success: 10 for the notification's first action, 11, 12. */
export const EXIT_FIRST_ACTION = 10;
const RECONNECT_DELAY_MS = 1000;

const FLAGS = {
  '--key': { kind: 'value', name: 'key' },
  '--timeout': { kind: 'value', name: 'timeout' },
  '--success': { kind: 'value', name: 'success' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

/**
 * `notifyctl wait <id> | --key K [--timeout S] [--success ACTION] [--json]`: returns when the
 * notification leaves `active`, with an exit code for each outcome (docs/notifyctl.md): 0 only for
 * resolved without an answer, or the answer named by --success. It follows the event stream and reads the
 * notification again on every (re)connection, so no change slips between a read and the stream.
 */
export const waitCommand: NotifyctlCommand = {
  name: 'wait',
  summary: 'wait until a notification (by id, or --key) is answered, resolved or dismissed',
  help: () =>
    [
      'Usage: notifyctl wait <id> | --key <key> [--timeout <seconds>] [--success <action>] [--json]',
      '',
      'Waits until the notification is answered, resolved or dismissed. Exit 0: resolved, or answered with',
      '--success (or its first action); 10, 11, 12: answered with its first, second, third action;',
      '4: dismissed; 124: still active at --timeout.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) => runWait(argv),
};

/** `notifyctl wait <argv>`, telling the person through `io`; resolves to the exit code. */
export function runWait(argv: string[], io: CommandIo = PROCESS_COMMAND_IO): Promise<number> {
  return runBrokerCommand('wait', argv, FLAGS, waitFor, io);
}

async function waitFor({ parsed, connection, client, io }: BrokerCommandContext): Promise<number> {
  const key = optionText(parsed, 'key');
  const [id, extra] = parsed.positionals;
  if ((id === undefined) === (key === undefined) || extra !== undefined) {
    throw new CliError(
      'wait needs one <id> or --key <key>. Usage: notifyctl wait <id> | --key <key> [--timeout <seconds>] [--success <action>].',
    );
  }
  const timeoutSeconds = parseTimeout(optionText(parsed, 'timeout'));
  const success = optionText(parsed, 'success');
  const finish = (notification: NotificationDto): number => {
    const outcome = outcomeOf(notification, success);
    if (parsed.options.has('json')) io.printLine(jsonText(notification));
    else io.printLine(`${notification.id} ${outcome.text}`);
    return outcome.exitCode;
  };

  const deadline = timeoutSeconds === undefined ? Infinity : Date.now() + timeoutSeconds * 1000;
  let stream: OpenStream | undefined;
  let timer: NodeJS.Timeout | undefined;
  let connectedOnce = false;
  let targetId: string | undefined;
  try {
    for (;;) {
      let settle!: (outcome: NotificationDto | 'reconnect') => void;
      const outcome = new Promise<NotificationDto | 'reconnect' | 'timeout'>((resolve) => {
        settle = resolve;
        if (deadline !== Infinity)
          timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
      });
      const opened = new Promise<void>((resolve, reject) => {
        stream = openEventStream(
          {
            baseUrl: connection.baseUrl,
            ...socketOf(connection),
            ...(connection.token !== undefined && { token: connection.token }),
          },
          {
            onOpen: () => {
              connectedOnce = true;
              resolve();
            },
            onEvent: ({ notification }) => {
              if (notification.id === targetId && notification.status !== 'active') settle(notification);
            },
            onReset: () => settle('reconnect'),
          },
        );
        stream.ended.then(
          () => settle('reconnect'),
          // Unreachable before the first connection is an answer (exit 1); after it, the broker restarts.
          (error: unknown) =>
            error instanceof BrokerUnreachableError && connectedOnce ? settle('reconnect') : reject(error),
        );
      });
      const connected = await Promise.race([opened.then(() => true), outcome.then(() => false)]);
      if (connected) {
        const current = await currentState(client, id, key);
        if (success !== undefined) checkSuccessAction(current, success);
        targetId = current.id;
        if (current.status !== 'active') settle(current);
      }
      const result = await outcome;
      clearTimeout(timer);
      stream?.close();
      if (result !== 'reconnect' && result !== 'timeout') return finish(result);
      if (result === 'reconnect') {
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(RECONNECT_DELAY_MS, deadline - Date.now())),
        );
        // A refused connection can beat a deadline's timer: the loop itself ends at the deadline.
        if (Date.now() < deadline) continue;
      }
      // Read once more: the deadline may pass before the stream opened or while the broker was away, and
      // a change may race it. What is said then is what the broker holds, never a guess.
      const last = await currentState(client, targetId ?? id, targetId === undefined ? key : undefined);
      if (targetId === undefined && success !== undefined) checkSuccessAction(last, success);
      if (last.status !== 'active') return finish(last);
      io.printLine(`${last.id} still active after ${timeoutSeconds} seconds`);
      return EXIT_TIMED_OUT;
    }
  } finally {
    clearTimeout(timer);
    stream?.close();
  }
}

/** What the outcome is called on stdout, and its exit code. */
export function outcomeOf(
  notification: NotificationDto,
  success: string | undefined,
): { text: string; exitCode: number } {
  if (notification.status === 'dismissed') return { text: 'dismissed', exitCode: EXIT_DISMISSED };
  const answer = notification.answer;
  if (!answer) return { text: 'resolved', exitCode: 0 };
  const position = (notification.actions ?? []).findIndex((action) => action.id === answer.action);
  return {
    text: `answered ${answer.action}`,
    exitCode: answer.action === success ? 0 : EXIT_FIRST_ACTION + Math.max(0, position),
  };
}

/** --success must name an action the notification offers, or the wait could never succeed by an answer. */
function checkSuccessAction(notification: NotificationDto, success: string): void {
  const ids = (notification.actions ?? []).map((action) => action.id);
  if (ids.includes(success)) return;
  throw new CliError(
    ids.length === 0
      ? `--success ${success}: notification ${notification.id} offers no actions`
      : `--success ${success}: notification ${notification.id} offers ${ids.join(', ')}`,
  );
}

/** The notification to wait for: by id, or the key's active one, else the key's latest. */
async function currentState(client: NotifyClient, id: string | undefined, key: string | undefined) {
  if (id !== undefined) {
    try {
      return await client.get(id);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404)
        throw new CliError('notification not found', EXIT_NOT_FOUND);
      throw error;
    }
  }
  const [active] = await client.list({ key: key!, unresolved: true, limit: 1 });
  if (active) return active;
  const [latest] = await client.list({ key: key!, limit: 1 });
  if (latest) return latest;
  throw new CliError(`no notification has key "${key}"`, EXIT_NOT_FOUND);
}

function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(seconds > 0)) throw new CliError('--timeout must be a number of seconds above 0.');
  return seconds;
}
