/** How long a push service asks the relay to wait (RFC 9110 Retry-After), as the push sender reads it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryAfterMs } from './push-sender.js';

const NOW = Date.parse('2026-11-29T06:00:00.000Z');
const DAY = 24 * 3_600_000;

describe('push sender: Retry-After', () => {
  it('reads seconds, with spaces around them, and the first of repeated headers', () => {
    assert.equal(retryAfterMs('120', NOW), 120_000);
    assert.equal(retryAfterMs(' 30 ', NOW), 30_000);
    assert.equal(retryAfterMs(['5', '90'], NOW), 5000);
    assert.equal(retryAfterMs('0', NOW), 0);
  });

  it('reads an HTTP date as the time until it; a date already past asks for no wait', () => {
    assert.equal(retryAfterMs('Sun, 29 Nov 2026 07:30:00 GMT', NOW), 90 * 60_000);
    assert.equal(retryAfterMs('Sun, 29 Nov 2026 05:00:00 GMT', NOW), 0);
  });

  it('waits at most a day, and not at all for a missing or unreadable header', () => {
    assert.equal(retryAfterMs(String(3 * 24 * 3600), NOW), DAY);
    assert.equal(retryAfterMs('Tue, 01 Dec 2026 06:00:00 GMT', NOW), DAY);
    assert.equal(retryAfterMs(undefined, NOW), 0);
    assert.equal(retryAfterMs([], NOW), 0);
    assert.equal(retryAfterMs('soon', NOW), 0);
    assert.equal(retryAfterMs('1.5', NOW), 0);
  });
});
