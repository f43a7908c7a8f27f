import { socketOf } from '../../client/transport.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEventStream, type ChangeEvent } from '../../client/event-stream.js';
import { BrokerUnreachableError } from '../../client/errors.js';
import { formatLine } from '../notify/list.js';
import { printError, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { runBrokerCommand } from './broker-command.js';

const RECONNECT_DELAY_MS = 1000;

/** `notifyctl watch [--json]`: one line per change, for scripts, tmux and status bars; Ctrl+C ends it. */
export const watchCommand: NotifyctlCommand = {
  name: 'watch',
  summary: 'print every change as it happens, one line each (--json for scripts)',
  help: () =>
    [
      'Usage: notifyctl watch [--json]',
      '',
      'Prints every change to a notification as it happens, one line each (--json: one JSON event each),',
      'reconnecting when the broker restarts. Ctrl+C ends it.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) =>
    runBrokerCommand('watch', argv, { '--json': { kind: 'switch', name: 'json' } }, async (context) => {
      const json = context.parsed.options.has('json');
      const print = (event: ChangeEvent) => printLine(json ? JSON.stringify(event) : humanLine(event));
      let lastEventId: string | undefined;
      let connectedOnce = false;
      for (;;) {
        try {
          await openEventStream(
            {
              baseUrl: context.connection.baseUrl,
              ...socketOf(context.connection),
              ...(context.connection.token !== undefined && { token: context.connection.token }),
              ...(lastEventId !== undefined && { lastEventId }),
            },
            {
              onOpen: () => {
                printError(
                  connectedOnce
                    ? 'notifyctl watch: connected to Notify again.'
                    : `notifyctl watch: following Notify at ${context.connection.baseUrl} (Ctrl+C stops).`,
                );
                connectedOnce = true;
              },
              onEvent: (event) => {
                lastEventId = event.id;
                print(event);
              },
              onReset: () => {
                lastEventId = undefined;
                if (json) printLine(JSON.stringify({ name: 'reset' }));
                else
                  printError(
                    "notifyctl watch: some changes were missed; run 'notify list' for the current state.",
                  );
              },
            },
          ).ended;
        } catch (error) {
          // Before the first connection, a broker that is not there is an answer; after it, a restart.
          if (!connectedOnce || !(error instanceof BrokerUnreachableError)) throw error;
        }
        printError('notifyctl watch: lost the connection to Notify; reconnecting...');
        await sleep(RECONNECT_DELAY_MS);
      }
    }),
};

/** `HH:MM:SS created <notify list line>` in local time. */
function humanLine(event: ChangeEvent): string {
  const time = new Date(event.notification.updatedAt).toTimeString().slice(0, 8);
  const what = event.name.replace(/^notification\./, '').padEnd(9);
  return `${time} ${what} ${formatLine(event.notification)}`;
}
