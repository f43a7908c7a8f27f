import { CliError, EXIT_NOT_FOUND } from '../notify/failure.js';
import { optionText } from '../notify/args.js';
import { printJson, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { runBrokerCommand } from './broker-command.js';

const FLAGS = {
  '--key': { kind: 'value', name: 'key' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

const USAGE = 'Usage: notifyctl focus <id> | notifyctl focus --key <key> [--json].';

/**
 * `notifyctl focus <id>|--key K`: takes the person to the terminal pane, tab or window where the
 * notification's agent runs (docs/focus.md); a refusal (409) prints why.
 */
export const focusCommand: NotifyctlCommand = {
  name: 'focus',
  summary: "go to where a notification's agent runs: tmux pane, kitty window, ... (id or --key)",
  run: (argv) =>
    runBrokerCommand('focus', argv, FLAGS, async ({ parsed, client }) => {
      const key = optionText(parsed, 'key');
      if (parsed.positionals.length !== (key === undefined ? 1 : 0))
        throw new CliError(`focus needs one notification: <id> or --key <key>. ${USAGE}`);
      let id = parsed.positionals[0]!;
      if (key !== undefined) {
        const [active] = await client.list({ key, unresolved: true, limit: 1 });
        if (!active) throw new CliError(`no active notification has key "${key}"`, EXIT_NOT_FOUND);
        id = active.id;
      }
      const result = await client.focus(id);
      if (parsed.options.has('json')) printJson(result);
      else printLine(`${id} focused (${result.how}${result.outer ? ` and ${result.outer}` : ''})`);
      return 0;
    }),
};
