import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrokerProcess, StartOptions } from './broker-process.js';

/** The broker entry point whose clock the test drives (driven-clock-broker-main.ts). */
export const DRIVEN_CLOCK_BROKER = fileURLToPath(new URL('./driven-clock-broker-main.js', import.meta.url));

/**
 * A clock for one broker: the system clock plus an offset kept in a file. `set` and `advance` write
 * the offset and signal the broker, which reads it and looks at its due times again.
 */
export interface DrivenClock {
  /** Start options that run the driven-clock broker with this clock. */
  options: Pick<StartOptions, 'script' | 'env'>;
  /** The broker's time now. */
  now(): number;
  /** From now on the broker's time runs on from `instant`. */
  set(broker: BrokerProcess, instant: number): Promise<void>;
  advance(broker: BrokerProcess, ms: number): Promise<void>;
  cleanup(): void;
}

export function createDrivenClock(start = Date.now()): DrivenClock {
  const dir = mkdtempSync(join(tmpdir(), 'notify-clock-'));
  const file = join(dir, 'offset');
  let offset = start - Date.now();
  writeFileSync(file, String(offset));
  // Resolves once the broker says it read the new offset.
  const move = (broker: BrokerProcess) =>
    new Promise<void>((resolve) => {
      writeFileSync(file, String(offset));
      const onData = (chunk: Buffer) => {
        if (!chunk.toString().includes('clock moved to')) return;
        broker.child.stdout!.off('data', onData);
        resolve();
      };
      broker.child.stdout!.on('data', onData);
      broker.child.kill('SIGUSR2');
    });
  return {
    options: { script: DRIVEN_CLOCK_BROKER, env: { NOTIFY_TEST_CLOCK_FILE: file } },
    now: () => Date.now() + offset,
    set: (broker, instant) => {
      offset = instant - Date.now();
      return move(broker);
    },
    advance: (broker, ms) => {
      offset += ms;
      return move(broker);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
