/**
 * When a failed delivery is tried again (docs/providers.md, "Bounded retries"). Six attempts in all; after
 * failure n (1-5) the next attempt waits a random time in [0, cap(n)] ("full jitter"), with caps of
 * 1, 2, 4, 8 and 16 minutes: 31 minutes at most, 15.5 minutes on average. Full jitter alone can draw
 * short waits every time, so the last attempt never starts sooner than ten minutes after the item was
 * queued: a receiver that is down for ten minutes is always waited out. A receiver's Retry-After
 * replaces the jittered wait, up to an hour, so no receiver can park an item (and hold its provider)
 * for longer than that.
 */
export const MAX_ATTEMPTS = 6;
export const ATTEMPT_TIMEOUT_MS = 15_000;
export const FIRST_BACKOFF_CAP_MS = 60_000;
export const MIN_SPAN_MS = 10 * 60_000;
export const MAX_RETRY_AFTER_MS = 60 * 60_000;

export interface RetryPolicy {
  maxAttempts: number;
  attemptTimeoutMs: number;
  /** The cap of the wait after the first failure; it doubles after each further one. */
  firstBackoffCapMs: number;
  /** The last attempt starts at least this long after the item was queued. */
  minSpanMs: number;
  /** The longest Retry-After honoured; longer ones are cut to it. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: MAX_ATTEMPTS,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  firstBackoffCapMs: FIRST_BACKOFF_CAP_MS,
  minSpanMs: MIN_SPAN_MS,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
};

/** The largest wait after the given failed attempt (1-based). */
export function backoffCapMs(policy: RetryPolicy, failedAttempt: number): number {
  return policy.firstBackoffCapMs * 2 ** Math.max(0, failedAttempt - 1);
}

/** Full jitter: uniformly random in [0, cap]; `random` returns [0, 1) like Math.random. */
export function backoffDelayMs(policy: RetryPolicy, failedAttempt: number, random: () => number): number {
  return Math.floor(random() * (backoffCapMs(policy, failedAttempt) + 1));
}

/** A receiver's Retry-After as honoured: at most the policy's longest. */
export function honouredRetryAfterMs(policy: RetryPolicy, retryAfterMs: number): number {
  return Math.min(retryAfterMs, policy.maxRetryAfterMs);
}

/**
 * When the next attempt may start, or undefined when the item has used all its attempts and
 * dead-letters. A Retry-After from the receiver wins over the jittered wait; the last attempt waits
 * until `minSpanMs` after `queuedAt` if the waits so far were shorter.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  failedAttempt: number,
  now: number,
  random: () => number,
  queuedAt: number,
  retryAfterMs?: number,
): number | undefined {
  if (failedAttempt >= policy.maxAttempts) return undefined;
  const wait =
    retryAfterMs !== undefined
      ? honouredRetryAfterMs(policy, retryAfterMs)
      : backoffDelayMs(policy, failedAttempt, random);
  const next = now + wait;
  return failedAttempt === policy.maxAttempts - 1 ? Math.max(next, queuedAt + policy.minSpanMs) : next;
}
