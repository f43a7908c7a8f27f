import { CliError, EXIT_NOT_FOUND } from '../notify/failure.js';
import { optionText } from '../notify/args.js';
import { jsonText } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { PROCESS_COMMAND_IO, type CommandIo } from './command-io.js';
import { runBrokerCommand } from './broker-command.js';

const FLAGS = {
  '--key': { kind: 'value', name: 'key' },
  '--json': { kind: 'switch', name: 'json' },
} as const;

const USAGE = 'Usage: notifyctl snooze <id> <duration> | notifyctl snooze --key <key> <duration> [--json].';
const DURATION = /^(?:(\d+)h)?(?:(\d+)m?)?$/;

/** `15m`, `15`, `2h`, `1h30m` → whole minutes; undefined for anything else or an empty duration. */
export function parseSnoozeDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim().toLowerCase());
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** HH:MM in the terminal's zone: when the snoozed notification comes back. */
function clockTime(iso: string): string {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

/**
 * `notifyctl snooze <id>|--key K <duration>`: closes the notification's toast and keeps it quiet for a
 * while, after which it alerts again if still active (docs/attention.md "Snooze").
 */
export const snoozeCommand: NotifyctlCommand = {
  name: 'snooze',
  summary: "close a notification's toast and keep it quiet for a while, e.g. 15m (id or --key)",
  help: () =>
    [
      USAGE,
      '',
      "Closes the notification's toast and keeps it quiet for the duration (15m, 2h, 1h30m; at most 24h),",
      'then alerts again if it is still active.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: (argv) => runSnooze(argv),
};

/** `notifyctl snooze <argv>`, telling the person through `io`; resolves to the exit code. */
export function runSnooze(argv: string[], io: CommandIo = PROCESS_COMMAND_IO): Promise<number> {
  return runBrokerCommand(
    'snooze',
    argv,
    FLAGS,
    async ({ parsed, client }) => {
      const key = optionText(parsed, 'key');
      const expected = key === undefined ? 2 : 1;
      if (parsed.positionals.length !== expected)
        throw new CliError(`snooze needs a notification (<id> or --key <key>) and a duration. ${USAGE}`);
      const minutes = parseSnoozeDuration(parsed.positionals.at(-1)!);
      if (minutes === undefined || minutes < 1 || minutes > 1440)
        throw new CliError('the duration must be minutes or hours from 1m to 24h, such as 15m, 90m or 2h.');
      let id = parsed.positionals[0]!;
      if (key !== undefined) {
        const [active] = await client.list({ key, unresolved: true, limit: 1 });
        if (!active) throw new CliError(`no active notification has key "${key}"`, EXIT_NOT_FOUND);
        id = active.id;
      }
      const snoozed = await client.snooze(id, minutes);
      if (parsed.options.has('json')) io.printLine(jsonText(snoozed));
      else io.printLine(`${snoozed.id} snoozed until ${clockTime(snoozed.snoozedUntil!)}`);
      return 0;
    },
    io,
  );
}
