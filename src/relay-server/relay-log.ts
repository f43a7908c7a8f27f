import type { RelayIo } from './relay-io.js';

/**
 * The serving relay's log: one line each, its time, its level and what it is about. Errors go to the
 * command's stderr, the rest to its stdout, where an operator (or a test) reads the relay's messages.
 */
export interface RelayLog {
  info(text: string): void;
  error(text: string): void;
}

export function relayLog(io: Pick<RelayIo, 'stdout' | 'stderr'>, clock: () => number): RelayLog {
  const line = (level: string, text: string): string =>
    `${new Date(clock()).toISOString()} [${level}] ${text}\n`;
  return {
    info: (text) => void io.stdout.write(line('INFO', text)),
    error: (text) => void io.stderr.write(line('ERROR', text)),
  };
}
