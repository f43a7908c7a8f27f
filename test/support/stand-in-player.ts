import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real programs named like sound players (pw-play, aplay, ...) in a folder of their own: each run
 * appends one line, `program|arg|arg|...`, to a record file, then exits with `exitStatus` (1: like
 * paplay without a sound server). Put `folder` alone on PATH.
 */
export interface StandInPlayers {
  folder: string;
  /** Every recorded run so far, oldest first, each as [program, ...args]. */
  calls(): string[][];
  /** Resolves once at least `count` runs are recorded; rejects after `timeoutMs`. */
  waitForCalls(count: number, timeoutMs?: number): Promise<string[][]>;
  cleanup(): void;
}

export function createStandInPlayers(programs: readonly string[], exitStatus = 0): StandInPlayers {
  const root = mkdtempSync(join(tmpdir(), 'notify-players-'));
  const folder = join(root, 'bin');
  const record = join(root, 'calls.txt');
  mkdirSync(folder);
  for (const program of programs) {
    const script = join(folder, program);
    writeFileSync(
      script,
      // One write per run: two players started together append whole lines, never interleaved parts.
      `#!/bin/sh\nline='${program}'\nfor arg in "$@"; do line="$line|$arg"; done\nprintf '%s\\n' "$line" >> '${record}'\nexit ${exitStatus}\n`,
    );
    chmodSync(script, 0o755);
  }
  const calls = () =>
    existsSync(record)
      ? readFileSync(record, 'utf8')
          .split('\n')
          // What follows the last newline is a line still being written.
          .slice(0, -1)
          .map((line) => line.split('|'))
      : [];
  return {
    folder,
    calls,
    waitForCalls: async (count, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (calls().length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} player runs, saw ${JSON.stringify(calls())}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return calls();
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
