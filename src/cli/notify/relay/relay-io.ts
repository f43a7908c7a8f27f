import { isatty } from 'node:tty';
import { printError, printLine } from '../output.js';

/**
 * Where `notify relay` reads its environment and writes what it tells the person: the process's own,
 * or, in the in-process tests, a recorder with a temp HOME.
 */
export interface RelayIo {
  readonly env: NodeJS.ProcessEnv;
  printLine(text: string): void;
  printError(text: string): void;
  /** Whether stderr is a terminal, where the countdown rewrites one line in place with `rewrite`. */
  readonly stderrIsTerminal: boolean;
  rewrite(text: string): void;
}

export const PROCESS_IO: RelayIo = {
  get env() {
    return process.env;
  },
  printLine,
  printError,
  get stderrIsTerminal() {
    return isatty(2);
  },
  rewrite: (text) => void process.stderr.write(text),
};
