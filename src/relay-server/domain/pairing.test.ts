import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanName, isForgotten, isOpen, pollOutcome, type Pairing } from './pairing.js';

const CREATED = 1_000_000;

function pairing(overrides: Partial<Pairing> = {}): Pairing {
  return {
    id: 'p_1',
    secretHash: 'h',
    userCode: 'BCDFGHJK',
    senderName: 'laptop',
    client: null,
    createdAt: CREATED,
    expiresAt: CREATED + 600_000,
    intervalSeconds: 5,
    lastPollAt: null,
    state: 'pending',
    endedAt: null,
    approvedBy: null,
    ...overrides,
  };
}

describe('pollOutcome', () => {
  const cases: [string, Partial<Pairing>, number, ReturnType<typeof pollOutcome>][] = [
    ['pending on time', {}, CREATED + 5_000, { status: 'pending' }],
    ['within the 0.5 s tolerance', {}, CREATED + 4_500, { status: 'pending' }],
    ['too fast after creation', {}, CREATED + 4_499, { status: 'slow_down', interval: 10 }],
    [
      'too fast after the last poll',
      { lastPollAt: CREATED + 20_000 },
      CREATED + 21_000,
      { status: 'slow_down', interval: 10 },
    ],
    [
      'slow_down is capped at 60 s',
      { intervalSeconds: 60, lastPollAt: CREATED },
      CREATED + 1,
      { status: 'slow_down', interval: 60 },
    ],
    ['approved, collected on time', { state: 'approved' }, CREATED + 5_000, { status: 'collect' }],
    [
      'approved but polled too fast',
      { state: 'approved' },
      CREATED + 1_000,
      { status: 'slow_down', interval: 10 },
    ],
    ['expired at expires_at', {}, CREATED + 600_000, { status: 'expired' }],
    ['approved, not collected in time', { state: 'approved' }, CREATED + 600_000, { status: 'expired' }],
    ['rejected, however fast', { state: 'rejected', endedAt: CREATED }, CREATED + 1, { status: 'rejected' }],
    [
      'consumed, after expiry too',
      { state: 'consumed', endedAt: CREATED },
      CREATED + 700_000,
      { status: 'consumed' },
    ],
  ];
  for (const [what, overrides, now, expected] of cases) {
    it(what, () => assert.deepEqual(pollOutcome(pairing(overrides), now), expected));
  }
});

describe('isOpen and isForgotten', () => {
  it('only a pending pairing before its expiry can be decided', () => {
    assert.equal(isOpen(pairing(), CREATED + 599_999), true);
    assert.equal(isOpen(pairing(), CREATED + 600_000), false);
    assert.equal(isOpen(pairing({ state: 'approved' }), CREATED), false);
  });

  it('a pairing is forgotten an hour after it ended or expired', () => {
    assert.equal(isForgotten(pairing({ state: 'rejected', endedAt: CREATED }), CREATED + 3_599_999), false);
    assert.equal(isForgotten(pairing({ state: 'rejected', endedAt: CREATED }), CREATED + 3_600_000), true);
    // A collected pairing counts from its collection, well before it would have expired.
    const collected = pairing({ state: 'consumed', endedAt: CREATED + 1_000 });
    assert.equal(isForgotten(collected, CREATED + 1_000 + 3_599_999), false);
    assert.equal(isForgotten(collected, CREATED + 1_000 + 3_600_000), true);
    assert.equal(isForgotten(pairing(), CREATED + 600_000 + 3_599_999), false);
    assert.equal(isForgotten(pairing(), CREATED + 600_000 + 3_600_000), true);
  });
});

describe('cleanName', () => {
  it('trims, and refuses empty, too long and control or bidi characters', () => {
    assert.equal(cleanName('  ada-laptop ', 100), 'ada-laptop');
    assert.equal(cleanName('', 100), undefined);
    assert.equal(cleanName('x', 100), 'x', 'one character is a name');
    assert.equal(cleanName('x'.repeat(100), 100), 'x'.repeat(100), 'the longest name allowed');
    assert.equal(cleanName('x'.repeat(101), 100), undefined);
    assert.equal(cleanName('📱'.repeat(100), 100), '📱'.repeat(100), 'an emoji is one character');
    assert.equal(cleanName('📱'.repeat(101), 100), undefined);
    assert.equal(cleanName('a\nb', 100), undefined);
    assert.equal(cleanName('evil\u202egnp.exe', 100), undefined);
    assert.equal(cleanName(42, 100), undefined);
  });
});
