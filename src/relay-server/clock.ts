import { readFileSync } from 'node:fs';

export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * Tests move a running relay's time forward (pairing expiry, retention) by writing a number of
 * milliseconds into a file named by NOTIFY_RELAY_CLOCK_OFFSET_FILE; without that variable the relay
 * reads the system clock only.
 */
export function clockFromEnvironment(environment: NodeJS.ProcessEnv): Clock {
  const file = environment['NOTIFY_RELAY_CLOCK_OFFSET_FILE'];
  if (!file) return systemClock;
  return () => Date.now() + offsetIn(file);
}

function offsetIn(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Sets and clears the relay's timers: the system's, or a test's that fire only when the test says. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

/** The system's timers, unref'd: a timer waiting on a queue never keeps the process alive. */
export const systemTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
