#!/usr/bin/env node
import '../runtime/require-node-floor.js';
import { printError, printLine } from './output.js';

interface CommandModule {
  run(argv: string[]): Promise<void>;
}

/**
 * Spec "Client command": the known first words. Each command loads only when used, so
 * `notify --version` and `notify send` never pay for the others' code; for the same reason this
 * file imports only the output helpers (exit code 0 is written out rather than imported).
 */
const COMMANDS = new Map<string, () => Promise<CommandModule>>([
  ['send', () => import('./send.js')],
  ['list', () => import('./list.js')],
  ['get', () => import('./get.js')],
  ['resolve', () => import('./resolve.js')],
  ['dismiss', () => import('./dismiss.js')],
  ['health', () => import('./health.js')],
  ['token', () => import('./token.js')],
  ['relay', () => import('./relay.js')],
  ['install-skill', () => import('./skill/install-skill-command.js')],
  ['install', () => import('./skill/install-command.js')],
  ['help', () => import('./help.js')],
]);

/** The help topic shown for `notify <command> --help`; commands without a topic get the usage. */
const TOPIC_OF: Record<string, string> = { install: 'install-skill' };

async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === '--version') {
    const { VERSION } = await import('../../version.js');
    printLine(`notify ${VERSION}`);
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h') return showHelp(undefined);
  const known = COMMANDS.has(first);
  const command = known ? first : 'send';
  const args = known ? argv.slice(1) : argv;
  if (command !== 'help' && asksForHelp(args)) return showHelp(TOPIC_OF[command] ?? command);
  const module = await COMMANDS.get(command)!();
  let code = 0;
  try {
    await module.run(args);
  } catch (error) {
    const { reportFailure } = await import('./report.js');
    code = reportFailure(error, command);
  }
  if (!known) await hintNearCommand(first, code === 0);
  return code;
}

/** `notify lsit` stays a send (spec), and stderr says which command was probably meant. */
async function hintNearCommand(word: string, sent: boolean): Promise<void> {
  const { mayBeCommand, nearCommand } = await import('./did-you-mean.js');
  if (!mayBeCommand(word)) return;
  const command = nearCommand(word, [...COMMANDS.keys()]);
  if (command === undefined) return;
  printError(
    sent
      ? `Hint: sent as a notification titled "${word}"; did you mean 'notify ${command}'?`
      : `Hint: '${word}' is not a command, so this was a send; did you mean 'notify ${command}'?`,
  );
}

function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

async function showHelp(topic: string | undefined): Promise<number> {
  const { helpText } = await import('./help.js');
  printLine(helpText(topic));
  return 0;
}

// exitCode rather than exit(): a large JSON answer written to a pipe is flushed before Node ends.
void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
