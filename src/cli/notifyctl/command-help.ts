import type { NotifyctlCommand } from './command.js';

/** Whether the words ask for help: `--help` or `-h` before a `--` that ends the options. */
export function asksForHelp(words: readonly string[]): boolean {
  const end = words.indexOf('--');
  const options = end < 0 ? words : words.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/**
 * The help of a command, or of the subcommand the words name. A command without its own text still
 * answers, with its summary: every command in commands.ts has help, also one added later.
 */
export function helpOf(command: NotifyctlCommand, words: readonly string[]): string {
  const sub = command.subcommands?.find((part) =>
    words.some((word) => word === part.name || part.aliases?.includes(word) === true),
  );
  return (
    command.help?.(sub?.name) ??
    [
      `notifyctl ${command.name}: ${command.summary}`,
      '',
      `Usage: notifyctl ${command.name} [options]`,
      '',
      'See docs/notifyctl.md.',
    ].join('\n')
  );
}

/** The last line of a command's help that talks to the broker. */
export const CONNECTION_NOTE =
  'It takes --port <port> and --token <token> (default: NOTIFY_PORT / NOTIFY_TOKEN, else config.json).';
