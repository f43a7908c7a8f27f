import { CliError, EXIT_NOT_FOUND } from '../notify/failure.js';
import { optionText } from '../notify/args.js';
import { printJson, printLine } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { runBrokerCommand } from './broker-command.js';

const FLAGS = {
  '--key': { kind: 'value', name: 'key' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

const USAGE = 'Usage: notifyctl answer <id> <action> | notifyctl answer --key <key> <action> [--json].';

/**
 * `notifyctl answer <id>|--key K <action>`: answers for the person at this terminal (surface `cli`); the
 * first answer resolves the notification everywhere (docs/answers.md).
 */
export const answerCommand: NotifyctlCommand = {
  name: 'answer',
  summary: "answer a notification's request with one of its actions (by id, or --key)",
  run: (argv) =>
    runBrokerCommand('answer', argv, FLAGS, async ({ parsed, client }) => {
      const key = optionText(parsed, 'key');
      const expected = key === undefined ? 2 : 1;
      if (parsed.positionals.length !== expected) {
        throw new CliError(`answer needs a notification (<id> or --key <key>) and an action. ${USAGE}`);
      }
      const action = parsed.positionals.at(-1)!;
      let id = parsed.positionals[0]!;
      if (key !== undefined) {
        const [active] = await client.list({ key, unresolved: true, limit: 1 });
        if (!active) throw new CliError(`no active notification has key "${key}"`, EXIT_NOT_FOUND);
        id = active.id;
      }
      const answered = await client.answer(id, action, 'cli');
      if (parsed.options.has('json')) printJson(answered);
      else printLine(`${answered.id} answered ${answered.answer?.action ?? action}`);
      return 0;
    }),
};
