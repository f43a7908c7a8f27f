/**
 * Timers that fire only when a test says (the relay's `Timers`, src/relay-server/clock.ts): a test of
 * the push sender sees each delay it asks for, and that a push goes out without its timer firing.
 */
import type { Timers } from '../../src/relay-server/clock.js';

export class ManualTimers implements Timers {
  /** Every delay asked for, in order, fired or not. */
  readonly delays: number[] = [];
  private readonly pending = new Map<number, () => void>();
  private count = 0;

  set(callback: () => void, ms: number): number {
    this.delays.push(ms);
    this.pending.set(++this.count, callback);
    return this.count;
  }

  clear(timer: unknown): void {
    this.pending.delete(timer as number);
  }

  /** Timers set and neither fired nor cleared. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Fires every waiting timer, as if its time had come. */
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const callback of due) callback();
  }
}
