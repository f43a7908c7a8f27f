import type { Clock } from './clock.js';
import { RateLimiter, shareOf } from './rate-limiter.js';

const MINUTE = 60_000;
const WINDOW_MS = 15 * MINUTE;
/** Failures per client address, and per user name from one address, in 15 minutes. */
export const SIGN_IN_FAILURES_PER_ADDRESS = 10;
export const SIGN_IN_FAILURES_PER_NAME_AND_ADDRESS = 5;
/** Failures of one name from anywhere before each further attempt for it has to wait. */
export const SIGN_IN_FREE_FAILURES_PER_NAME = 5;
/** The wait after failure n (n > the free ones) doubles from 1 s up to this. */
export const SIGN_IN_MAX_NAME_DELAY_MS = MINUTE;
/** scrypt takes 32 MiB and a thread for about 100 ms: more checks at once only queue and eat memory. */
export const MAX_CONCURRENT_PASSWORD_CHECKS = 4;

export type SignInAdmission =
  | { allowed: true; attempt: SignInAttempt }
  | { allowed: false; reason: 'limited' | 'busy'; retryAfterSeconds: number };

export interface SignInAttempt {
  succeeded(): void;
  failed(): void;
}

interface NameState {
  startedAt: number;
  failures: number;
  nextAt: number;
}

/**
 * Who may try a password now. An attempt counts as a failure from the moment it is admitted, before
 * its password is checked, and is taken back when it succeeds: a burst cannot slip past the limits
 * while its checks are in flight. The hard limits are keyed on the address and on name + address, so
 * guesses from elsewhere cannot lock a person out; one name guessed from many addresses is slowed by
 * a wait that doubles with every failure.
 */
export class SignInGuard {
  private readonly byAddress: RateLimiter;
  private readonly byNameAndAddress: RateLimiter;
  private readonly names = new Map<string, NameState>();
  private checking = 0;

  /** processes: relay processes behind one balancer; this one counts its share of each address limit. */
  constructor(
    private readonly clock: Clock,
    processes = 1,
  ) {
    this.byAddress = new RateLimiter(
      shareOf({ max: SIGN_IN_FAILURES_PER_ADDRESS, windowMs: WINDOW_MS }, processes),
      clock,
    );
    this.byNameAndAddress = new RateLimiter(
      shareOf({ max: SIGN_IN_FAILURES_PER_NAME_AND_ADDRESS, windowMs: WINDOW_MS }, processes),
      clock,
    );
  }

  admit(username: string, address: string): SignInAdmission {
    const name = username.toLowerCase();
    const pair = `${name}\n${address}`;
    const now = this.clock();
    const refusals = [
      this.byAddress.peek(address),
      this.byNameAndAddress.peek(pair),
      this.nameVerdict(name, now),
    ];
    const waits = refusals.flatMap((verdict) => (verdict.allowed ? [] : [verdict.retryAfterSeconds]));
    if (waits.length > 0) return { allowed: false, reason: 'limited', retryAfterSeconds: Math.max(...waits) };
    if (this.checking >= MAX_CONCURRENT_PASSWORD_CHECKS)
      return { allowed: false, reason: 'busy', retryAfterSeconds: 1 };
    this.checking++;
    this.byAddress.record(address);
    this.byNameAndAddress.record(pair);
    const waitBefore = this.countNameFailure(name, now);
    let settled = false;
    const settle = (success: boolean): void => {
      if (settled) return;
      settled = true;
      this.checking--;
      if (!success) return;
      this.byAddress.release(address);
      this.byNameAndAddress.release(pair);
      const state = this.names.get(name);
      if (state && state.failures > 0) {
        state.failures--;
        state.nextAt = waitBefore;
      }
    };
    return { allowed: true, attempt: { succeeded: () => settle(true), failed: () => settle(false) } };
  }

  private nameVerdict(
    name: string,
    now: number,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const state = this.current(name, now);
    if (!state || state.failures < SIGN_IN_FREE_FAILURES_PER_NAME || now >= state.nextAt)
      return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((state.nextAt - now) / 1000)) };
  }

  /** Counts one failure of the name and returns the wait it replaced (restored if the attempt succeeds). */
  private countNameFailure(name: string, now: number): number {
    let state = this.current(name, now);
    if (!state) {
      if (this.names.size >= 10_000) this.sweep(now);
      state = { startedAt: now, failures: 0, nextAt: now };
      this.names.set(name, state);
    }
    const waitBefore = state.nextAt;
    state.failures++;
    if (state.failures >= SIGN_IN_FREE_FAILURES_PER_NAME) {
      const doublings = state.failures - SIGN_IN_FREE_FAILURES_PER_NAME;
      state.nextAt = now + Math.min(SIGN_IN_MAX_NAME_DELAY_MS, 1000 * 2 ** Math.min(doublings, 20));
    }
    return waitBefore;
  }

  private current(name: string, now: number): NameState | undefined {
    const state = this.names.get(name);
    return state && now - state.startedAt < WINDOW_MS ? state : undefined;
  }

  private sweep(now: number): void {
    for (const [name, state] of this.names) if (now - state.startedAt >= WINDOW_MS) this.names.delete(name);
  }
}
