#!/usr/bin/env node
import '../runtime/require-node-floor.js';
import module from 'node:module';
// The compile cache (os.tmpdir()/node-compile-cache) serves only modules compiled after this call, so
// the program's own modules are imported below it; optional call: an older Node.js lacks it.
module.enableCompileCache?.();
const { VERSION } = await import('../../version.js');
const { COMMANDS } = await import('./commands.js');
const { asksForHelp, helpOf } = await import('./command-help.js');

function usage(): string {
  const width = Math.max(12, ...COMMANDS.map((command) => command.name.length)) + 2;
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)} ${command.summary}`);
  return [
    `notifyctl ${VERSION}: administration of Notify beyond the notify client.`,
    '',
    'Usage: notifyctl <command> [options]',
    '       notifyctl help <command> [<subcommand>]   (or: notifyctl <command> --help)',
    '',
    'Commands:',
    ...lines,
    `  ${'--help, -h'.padEnd(width)} this text`,
    `  ${'--version'.padEnd(width)} print the version`,
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'help' && rest.length > 0) return help(rest[0]!, rest.slice(1));
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    console.log(usage());
    return 0;
  }
  if (first === '--version') {
    console.log(`notifyctl ${VERSION}`);
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === first);
  if (!command) {
    console.error(`notifyctl: unknown command '${first}'. Run 'notifyctl --help'.`);
    return 1;
  }
  if (asksForHelp(rest)) return help(first, rest);
  return command.run(rest);
}

/** `notifyctl help <command> [<subcommand>]` and `notifyctl <command> [<subcommand>] --help`. */
function help(name: string, words: readonly string[]): number {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`notifyctl: unknown command '${name}'. Run 'notifyctl --help'.`);
    return 1;
  }
  console.log(helpOf(command, words));
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
