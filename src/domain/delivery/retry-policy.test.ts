import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffCapMs, DEFAULT_RETRY_POLICY, nextAttemptAt } from './retry-policy.js';

describe('retry policy', () => {
  it('allows six attempts of fifteen seconds each', () => {
    assert.equal(DEFAULT_RETRY_POLICY.maxAttempts, 6);
    assert.equal(DEFAULT_RETRY_POLICY.attemptTimeoutMs, 15_000);
  });

  it('doubles the cap after each failure, spanning more than ten minutes on average', () => {
    const caps = [1, 2, 3, 4, 5].map((n) => backoffCapMs(DEFAULT_RETRY_POLICY, n));
    assert.deepEqual(caps, [60_000, 120_000, 240_000, 480_000, 960_000]);
    const meanSpan = caps.reduce((sum, cap) => sum + cap / 2, 0);
    assert.ok(meanSpan >= 10 * 60_000, `mean span ${meanSpan} ms`);
  });

  it('waits a random time between zero and the cap (full jitter)', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0),
      1000,
    );
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0.999999999),
      1000 + 120_000,
    );
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 2, 1000, () => 0.5),
      1000 + 60_000,
    );
  });

  it('takes the receiver Retry-After instead of the jittered wait', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 1, 1000, () => 0.9, 5000),
      6000,
    );
  });

  it('gives no next attempt after the sixth, so the item dead-letters', () => {
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 5, 0, () => 0),
      0,
    );
    assert.equal(
      nextAttemptAt(DEFAULT_RETRY_POLICY, 6, 0, () => 0),
      undefined,
    );
  });
});
