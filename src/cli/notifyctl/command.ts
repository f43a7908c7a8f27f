/** One notifyctl command: a file of its own, one line in commands.ts. */
export interface NotifyctlCommand {
  name: string;
  /** One line for `notifyctl --help`. */
  summary: string;
  /** Gets the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}
