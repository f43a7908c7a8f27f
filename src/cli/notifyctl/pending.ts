import type { NotificationDto } from '../../client/api-types.js';
import { answersWithheld, showControls, TERMINAL_ONLY } from '../../domain/display-controls.js';
import { MAX_LIST_LIMIT } from '../../domain/list-query.js';
import { printJson, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { runBrokerCommand } from './broker-command.js';

/**
 * `notifyctl pending [--json]`: the active notifications that offer actions, i.e. what waits for the
 * person's answer, newest first, each with the actions `notifyctl answer` takes.
 */
export const pendingCommand: NotifyctlCommand = {
  name: 'pending',
  summary: 'list what waits for an answer, with its actions',
  run: (argv) =>
    runBrokerCommand(
      'pending',
      argv,
      { '--json': { kind: 'switch', name: 'json' } },
      async ({ parsed, client }) => {
        const active = await client.list({ unresolved: true, limit: MAX_LIST_LIMIT });
        const waiting = active.filter((notification) => notification.actions !== undefined);
        if (parsed.options.has('json')) printJson(waiting);
        else if (waiting.length === 0) printLine('nothing waits for an answer');
        else waiting.forEach((notification) => printLine(pendingLine(notification)));
        return 0;
      },
    ),
};

/**
 * e.g. `01JD… claude: Run this command? [allow=Allow, deny=Deny]`; a request whose text holds direction
 * or invisible characters names no actions, but says to answer in the terminal.
 */
export function pendingLine(notification: NotificationDto): string {
  const actions = answersWithheld(notification)
    ? [TERMINAL_ONLY]
    : (notification.actions ?? []).map((action) => `${action.id}=${oneLine(action.label)}`);
  return `${notification.id} ${oneLine(notification.agent)}: ${oneLine(notification.title)} [${actions.join(', ')}]`;
}

/**
 * Direction and invisible characters show as `⟨U+202E⟩`; the remaining control characters (line
 * breaks, tabs) never reach the terminal: each run becomes one space, as in `notify list`.
 */
function oneLine(text: string): string {
  return showControls(text).replace(/\p{Cc}+/gu, ' ');
}
