import { CliError, EXIT_NOT_FOUND } from '../notify/failure.js';
import { optionText } from '../notify/args.js';
import { jsonText } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';
import { runBrokerCommand } from './broker-command.js';

const FLAGS = {
  '--key': { kind: 'value', name: 'key' },
  '--revision': { kind: 'value', name: 'revision' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

const USAGE =
  'Usage: notifyctl answer <id> <action> --revision <n> | notifyctl answer --key <key> <action> --revision <n> [--json].';

/**
 * `notifyctl answer <id>|--key K <action> --revision N`: answers for the person at this terminal
 * (surface `cli`); the first answer resolves the notification everywhere (docs/answers.md). The
 * revision is the one the person read in `notifyctl pending`: a request that changed since is refused,
 * so the answer approves exactly what was read, never what replaced it meanwhile.
 */
export const answerCommand: NotifyctlCommand = {
  name: 'answer',
  summary: 'answer a request with one of its actions (id or --key; --revision from pending)',
  help: () =>
    [
      'Usage: notifyctl answer <id> <action> --revision <n> [--json]',
      '       notifyctl answer --key <key> <action> --revision <n> [--json]',
      '',
      "Answers a request for the person at this terminal; the revision is the one 'notifyctl pending'",
      'showed, so the answer approves exactly what you read (a request changed since is refused).',
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) => runAnswer(argv),
};

/** `notifyctl answer <argv>`, telling the person through `io`; resolves to the exit code. */
export function runAnswer(argv: string[], io: CommandIo = PROCESS_COMMAND_IO): Promise<number> {
  return runBrokerCommand(
    'answer',
    argv,
    FLAGS,
    async ({ parsed, client }) => {
      const key = optionText(parsed, 'key');
      const expected = key === undefined ? 2 : 1;
      if (parsed.positionals.length !== expected) {
        throw new CliError(`answer needs a notification (<id> or --key <key>) and an action. ${USAGE}`);
      }
      const revision = revisionOf(optionText(parsed, 'revision'));
      const action = parsed.positionals.at(-1)!;
      let id = parsed.positionals[0]!;
      if (key !== undefined) {
        const [active] = await client.list({ key, unresolved: true, limit: 1 });
        // Answered already: the broker's own refusal says by whom, as for an id.
        const answered = active ? undefined : (await client.list({ key, limit: 1 }))[0];
        if (!active && !answered?.answer)
          throw new CliError(`no active notification has key "${key}"`, EXIT_NOT_FOUND);
        id = (active ?? answered)!.id;
      }
      const answered = await client.answer(id, action, revision, 'cli');
      if (parsed.options.has('json')) io.printLine(jsonText(answered));
      else io.printLine(`${answered.id} answered ${answered.answer?.action ?? action}`);
      return 0;
    },
    io,
  );
}

/** `--revision N`: required, so that an answer typed at a terminal never approves text nobody read. */
function revisionOf(text: string | undefined): number {
  if (text === undefined)
    throw new CliError(
      'answer needs --revision <n>: the revision notifyctl pending showed with the request, so the answer approves exactly what you read. Run notifyctl pending, read the request, then answer it with its revision.',
    );
  const revision = /^\d{1,15}$/.test(text) ? Number(text) : 0;
  if (revision < 1)
    throw new CliError(
      `--revision must be a whole number from 1, as notifyctl pending shows it; got "${text}"`,
    );
  return revision;
}
