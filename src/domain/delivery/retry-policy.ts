/**
 * When a failed delivery is tried again (docs/providers.md "Retries"). Six attempts in all; after
 * failure n (1-5) the next attempt waits a random time in [0, cap(n)] ("full jitter"), with caps of
 * 1, 2, 4, 8 and 16 minutes: 31 minutes at most, 15.5 minutes on average, so a receiver that is down
 * for ten minutes is usually waited out. A receiver's Retry-After replaces the jittered wait.
 */
export const MAX_ATTEMPTS = 6;
export const ATTEMPT_TIMEOUT_MS = 15_000;
export const FIRST_BACKOFF_CAP_MS = 60_000;

export interface RetryPolicy {
  maxAttempts: number;
  attemptTimeoutMs: number;
  /** The cap of the wait after the first failure; it doubles after each further one. */
  firstBackoffCapMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: MAX_ATTEMPTS,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  firstBackoffCapMs: FIRST_BACKOFF_CAP_MS,
};

/** The largest wait after the given failed attempt (1-based). */
export function backoffCapMs(policy: RetryPolicy, failedAttempt: number): number {
  return policy.firstBackoffCapMs * 2 ** Math.max(0, failedAttempt - 1);
}

/** Full jitter: uniformly random in [0, cap]; `random` returns [0, 1) like Math.random. */
export function backoffDelayMs(policy: RetryPolicy, failedAttempt: number, random: () => number): number {
  return Math.floor(random() * (backoffCapMs(policy, failedAttempt) + 1));
}

/**
 * When the next attempt may start, or undefined when the item has used all its attempts and
 * dead-letters. A Retry-After from the receiver wins over the jittered wait.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  failedAttempt: number,
  now: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  if (failedAttempt >= policy.maxAttempts) return undefined;
  const wait = retryAfterMs !== undefined ? retryAfterMs : backoffDelayMs(policy, failedAttempt, random);
  return now + wait;
}
