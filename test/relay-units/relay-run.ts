/**
 * notify-relay run in the test process (`runRelay` of src/relay-server/run-relay.ts, as the bin runs
 * it): its output caught in strings, stopped by signal names sent to an emitter instead of the
 * process, and its purge timer the test's to fire. Stryker's `tap` runner reaches it in seconds.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Timers } from '../../src/relay-server/clock.js';
import { runRelay } from '../../src/relay-server/run-relay.js';
import { caughtText } from '../support/caught-output.js';
import { waitFor, within } from '../support/wait-for.js';

export interface RelayRun {
  /** The exit code, once the command ended or the relay stopped. */
  exited: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Sends SIGTERM or SIGINT, as a process manager would, and waits for the exit code. */
  stop(signal?: 'SIGTERM' | 'SIGINT'): Promise<number>;
}

const running = new Set<RelayRun>();

/** Stops every relay a test left running (one whose assertion failed first), so the file still ends. */
export async function stopAll(): Promise<void> {
  const left = [...running];
  running.clear();
  await Promise.all(left.map((relay) => relay.stop()));
}

export function run(
  argv: string[],
  options: { stdin?: string; timers?: Timers; env?: NodeJS.ProcessEnv } = {},
): RelayRun {
  const stdout = caughtText();
  const stderr = caughtText();
  const signals = new EventEmitter();
  const exited = runRelay({
    argv,
    env: options.env ?? {},
    io: { stdin: Readable.from([options.stdin ?? '']), stdout: stdout.stream, stderr: stderr.stream },
    signals,
    ...(options.timers && { timers: options.timers }),
  });
  const relay: RelayRun = {
    exited,
    stdout: stdout.text,
    stderr: stderr.text,
    stop: (signal = 'SIGTERM') => {
      signals.emit(signal);
      return within(exited, `the relay to stop on ${signal}`);
    },
  };
  running.add(relay);
  return relay;
}

/** The address the relay printed once it listens. */
export function listeningUrl(relay: RelayRun): Promise<string> {
  return waitFor(() => /listening on (\S+)\n/.exec(relay.stdout())?.[1], 'the relay to listen');
}

/** A listening relay as the browser stand-in of test/support/relay-web.ts reaches it. */
export async function served(
  relay: RelayRun,
): Promise<{ url: string; port: number; setupUrl: string | undefined }> {
  const url = await listeningUrl(relay);
  return {
    url,
    port: Number(new URL(url).port),
    setupUrl: /\(this link works once\): (\S+)\n/.exec(relay.stdout())?.[1],
  };
}

/** The relay's clock, moved by the test through the file NOTIFY_RELAY_CLOCK_OFFSET_FILE names. */
export function movableClock(): { env: NodeJS.ProcessEnv; advance(ms: number): void } {
  const file = join(mkdtempSync(join(tmpdir(), 'notify-relay-clock-')), 'offset');
  let offset = 0;
  return {
    env: { NOTIFY_RELAY_CLOCK_OFFSET_FILE: file },
    advance(ms) {
      offset += ms;
      writeFileSync(file, String(offset));
    },
  };
}
