import type { FlagTable } from '../notify/args.js';

/** A subcommand as help and the tests that walk every command see it (`routes add`, `hooks status`). */
export interface CommandPart {
  name: string;
  aliases?: readonly string[];
  flags?: FlagTable;
}

/** One notifyctl command: a file of its own, one line in commands.ts. */
export interface NotifyctlCommand {
  name: string;
  /** One line for `notifyctl --help`. */
  summary: string;
  /**
   * What `notifyctl <name> [<subcommand>] --help` and `notifyctl help <name> [<subcommand>]` print;
   * main.ts answers them before `run`, so a help request never reaches the broker or a hook's log.
   */
  help?(subcommand?: string): string;
  subcommands?: readonly CommandPart[];
  /** Gets the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}
