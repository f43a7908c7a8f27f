import { runRelay } from '../../src/cli/notify/relay/relay-command.js';
import type { RelayIo } from '../../src/cli/notify/relay/relay-io.js';

/**
 * `notify relay …` run inside the test process (the compiled modules, not the bundle), so mutation
 * testing reaches them: what it prints is recorded, its environment is the test's temp HOME.
 */

export interface RelayRun {
  code: number;
  stdout: string;
  stderr: string;
}

export class RecordedIo implements RelayIo {
  stdout = '';
  stderr = '';
  /** What the countdown wrote in place on a terminal. */
  rewritten: string[] = [];

  constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly stderrIsTerminal = false,
  ) {}

  printLine(text: string): void {
    this.stdout += `${text}\n`;
  }

  printError(text: string): void {
    this.stderr += `${text}\n`;
  }

  rewrite(text: string): void {
    this.rewritten.push(text);
  }
}

/** Starts `notify relay <args>`; `io` shows its output while it runs, `done` its end. */
export function startRelayCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  stderrIsTerminal = false,
): { io: RecordedIo; done: Promise<RelayRun> } {
  const io = new RecordedIo(env, stderrIsTerminal);
  const done = runRelay(args, io).then((code) => ({ code, stdout: io.stdout, stderr: io.stderr }));
  return { io, done };
}

export function runRelayInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<RelayRun> {
  return startRelayCommand(args, env).done;
}

/** Waits (in real time, whatever timers and Date a test mocks) until `check` holds. */
export async function until(check: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await realDelay(5);
  }
}

const realSetTimeout = globalThis.setTimeout;

export function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(resolve, ms));
}
