import type { NotificationDto } from '../../client/api-types.js';
import { answersWithheld, showControls, TERMINAL_ONLY } from '../../domain/display-controls.js';
import { MAX_LIST_LIMIT } from '../../domain/list-query.js';
import { jsonText } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';
import { runBrokerCommand } from './broker-command.js';

/**
 * `notifyctl pending [--json]`: the active notifications that offer actions, i.e. what waits for the
 * person's answer, newest first, each with what it asks (its message), its revision and the actions
 * `notifyctl answer` takes: the person answers the revision they read here.
 */
export const pendingCommand: NotifyctlCommand = {
  name: 'pending',
  summary: 'list what waits for an answer, with its actions',
  help: () =>
    [
      'Usage: notifyctl pending [--json]',
      '',
      'What waits for your answer, newest first: each request with its message, its revision and the',
      "actions 'notifyctl answer <id> <action> --revision <n>' takes.",
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) => runPending(argv),
};

/** `notifyctl pending <argv>`, telling the person through `io`; resolves to the exit code. */
export function runPending(argv: string[], io: CommandIo = PROCESS_COMMAND_IO): Promise<number> {
  return runBrokerCommand(
    'pending',
    argv,
    { '--json': { kind: 'switch', name: 'json' } },
    async ({ parsed, client }) => {
      const active = await client.list({ unresolved: true, limit: MAX_LIST_LIMIT });
      const waiting = active.filter((notification) => notification.actions !== undefined);
      if (parsed.options.has('json')) io.printLine(jsonText(waiting));
      else if (waiting.length === 0) io.printLine('nothing waits for an answer');
      else {
        for (const notification of waiting) {
          io.printLine(pendingLine(notification));
          messageLines(notification.message).forEach((line) => io.printLine(line));
        }
        if (waiting.some((notification) => !answersWithheld(notification))) io.printLine(ANSWER_HINT);
      }
      return 0;
    },
    io,
  );
}

const ANSWER_HINT = 'Answer with: notifyctl answer <id> <action> --revision <revision>';

/**
 * e.g. `01JD… revision 2 claude: Run this command? [allow=Allow, deny=Deny]`; a request whose text holds
 * direction or invisible characters names no actions, but says to answer in the terminal.
 */
export function pendingLine(notification: NotificationDto): string {
  const actions = answersWithheld(notification)
    ? [TERMINAL_ONLY]
    : (notification.actions ?? []).map((action) => `${action.id}=${oneLine(action.label)}`);
  return `${notification.id} revision ${notification.revision} ${oneLine(notification.agent)}: ${oneLine(notification.title)} [${actions.join(', ')}]`;
}

/** The whole message, indented under its request, each of its lines on a line of its own. */
function messageLines(message: string): string[] {
  return message.split(/\r\n|\r|\n/).map((line) => `    ${oneLine(line)}`);
}

/**
 * Direction and invisible characters show as `⟨U+202E⟩`; the remaining control characters (line
 * breaks, tabs) never reach the terminal: each run becomes one space, as in `notify list`.
 */
function oneLine(text: string): string {
  return showControls(text).replace(/\p{Cc}+/gu, ' ');
}
