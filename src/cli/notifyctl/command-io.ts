import { printError, printLine } from '../notify/output.js';

/**
 * Where a notifyctl command reads its environment and writes what it tells the person: the process's
 * own, or, in the in-process tests, a recorder with a temp HOME (as notify relay's RelayIo).
 */
export interface CommandIo {
  readonly env: NodeJS.ProcessEnv;
  printLine(text: string): void;
  printError(text: string): void;
}

export const PROCESS_COMMAND_IO: CommandIo = {
  get env() {
    return process.env;
  },
  printLine,
  printError,
};
