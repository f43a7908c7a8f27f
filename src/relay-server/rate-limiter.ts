import type { Clock } from './clock.js';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * One process's share of a limit that several relay processes behind one balancer enforce together:
 * round-robin sends each process about 1/processes of a client's requests (docs/relay.md "Many people").
 */
export function shareOf(limit: Limit, processes: number): Limit {
  return { ...limit, max: Math.max(1, Math.ceil(limit.max / processes)) };
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** How many keys a limiter holds before a new window sweeps out the ended ones. */
export const SWEEP_AT = 10_000;

interface Window {
  startedAt: number;
  count: number;
}

/** Fixed windows per key, in memory, per process (shareOf for several); counters vanish with their window. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: Limit,
    private readonly clock: Clock,
  ) {}

  /**
   * How many keys it holds counters for: addresses and names from the internet are unbounded, so it
   * forgets ended windows once it holds SWEEP_AT of them.
   */
  get size(): number {
    return this.windows.size;
  }

  /** Counts one attempt and says whether it may go ahead. */
  take(key: string): Verdict {
    const verdict = this.peek(key);
    if (!verdict.allowed) return verdict;
    this.record(key);
    return verdict;
  }

  /** Whether an attempt would be allowed, without counting it (sign-in counts only failures). */
  peek(key: string): Verdict {
    const now = this.clock();
    const window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.limit.windowMs || window.count < this.limit.max) {
      return { allowed: true };
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + this.limit.windowMs - now) / 1000)),
    };
  }

  record(key: string): void {
    const now = this.clock();
    const window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.limit.windowMs) {
      this.sweep(now);
      this.windows.set(key, { startedAt: now, count: 1 });
    } else {
      window.count++;
    }
  }

  /**
   * Takes back one counted attempt (a sign-in counted while in flight that succeeded). Taken from a
   * window that has ended, it changes nothing: the next attempt starts a new window.
   */
  release(key: string): void {
    const window = this.windows.get(key);
    if (window && window.count > 0) window.count--;
  }

  private sweep(now: number): void {
    if (this.windows.size < SWEEP_AT) return;
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.limit.windowMs) this.windows.delete(key);
    }
  }
}
