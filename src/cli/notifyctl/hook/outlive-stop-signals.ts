import { logHookLine } from './hook-log.js';

/**
 * Tools may stop a hook before it is done: Claude Code runs StopFailure fire-and-forget, and
 * `claude -p` sends SIGTERM about 44 ms after spawning the hook. The event must still reach the
 * broker, so a stop signal does not end the adapter: it finishes its one request and exits 0 by
 * itself, or at the latest STOP_GRACE_MS after the signal (its own limits, 1 s of stdin silence and
 * 0.5 s for the broker, fit in it; the tools escalate to SIGKILL only seconds later). A permission
 * hook waiting for the person's answer stops waiting instead (stopRequested) and resolves its request.
 *
 * A module of its own, imported first by main.ts, so that the handlers are in place before anything
 * else of the bundle runs: a signal that arrives sooner ends the process.
 */
const STOP_GRACE_MS = 2000;

let deadline: NodeJS.Timeout | undefined;
let stopped: (signal: NodeJS.Signals) => void = () => {};

/**
 * Settles with the first stop signal. A permission hook that waits for the person's answer gives up
 * waiting then: the person answered in the terminal, and the tool is done with the hook.
 */
export const stopRequested = new Promise<NodeJS.Signals>((resolve) => (stopped = resolve));

function finishFirst(signal: NodeJS.Signals): void {
  stopped(signal);
  deadline ??= setTimeout(() => {
    logHookLine('WARN', `hook: still not done ${STOP_GRACE_MS} ms after ${signal}; exiting`);
    process.exit(0);
  }, STOP_GRACE_MS).unref();
}

// SIGHUP last: the test that stops the adapter early reads its handler as the sign all are in place.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, finishFirst);
