import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffCapMs, DEFAULT_RETRY_POLICY, nextAttemptAt } from './retry-policy.js';

const MINUTE = 60_000;

describe('retry policy', () => {
  it('allows six attempts of fifteen seconds each', () => {
    assert.equal(DEFAULT_RETRY_POLICY.maxAttempts, 6);
    assert.equal(DEFAULT_RETRY_POLICY.attemptTimeoutMs, 15_000);
  });

  it('doubles the cap after each failure: 1, 2, 4, 8 and 16 minutes', () => {
    const caps = [1, 2, 3, 4, 5].map((n) => backoffCapMs(DEFAULT_RETRY_POLICY, n));
    assert.deepEqual(caps, [MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 16 * MINUTE]);
  });

  it('waits a random time between zero and the cap (full jitter)', () => {
    const queuedAt = 0;
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0, queuedAt),
      1000,
    );
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0.999999999, queuedAt),
      1000 + 120_000,
    );
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0.5, queuedAt),
      1000 + 60_000,
    );
  });

  it('spans at least ten minutes from queueing to the last attempt, however short the random waits', () => {
    for (const random of [() => 0, () => 0.01, Math.random]) {
      let now = 0;
      for (let failed = 1; failed < DEFAULT_RETRY_POLICY.maxAttempts; failed++) {
        now = nextAttemptAt(DEFAULT_RETRY_POLICY, failed, now, random, 0)!;
      }
      assert.ok(now >= 10 * MINUTE, `the sixth attempt started at ${now} ms`);
    }
  });

  it('lets the last attempt follow its random wait when that is later than ten minutes', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 5, 20 * MINUTE, () => 0.5, 0),
      28 * MINUTE,
    );
  });

  it('takes the receiver Retry-After instead of the jittered wait', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 1, 1000, () => 0.9, 0, 5000),
      6000,
    );
  });

  it('cuts a Retry-After longer than an hour to an hour', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 1, 1000, () => 0.9, 0, 365 * 24 * 60 * MINUTE),
      1000 + 60 * MINUTE,
    );
  });

  it('gives no next attempt after the sixth, so the item dead-letters', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 6, 0, () => 0, 0),
      undefined,
    );
  });
});
