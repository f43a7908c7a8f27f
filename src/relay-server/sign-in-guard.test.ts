import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter, shareOf, SWEEP_AT } from './rate-limiter.js';
import { SignInGuard, type SignInAdmission } from './sign-in-guard.js';

const MINUTE = 60_000;

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { clock: () => now, advance: (ms: number) => (now += ms) };
}

/** One sign-in with a wrong password: admitted, checked, failed. */
function fail(guard: SignInGuard, name: string, address: string): SignInAdmission {
  const admission = guard.admit(name, address);
  if (admission.allowed) admission.attempt.failed();
  return admission;
}

describe('rate limiter: fixed windows per key', () => {
  it('allows max attempts a window, then refuses with the seconds left, and allows again in the next window', () => {
    const time = manualClock();
    const limiter = new RateLimiter({ max: 3, windowMs: MINUTE }, time.clock);
    for (let index = 0; index < 3; index++) assert.deepEqual(limiter.take('a'), { allowed: true });
    time.advance(20_500);
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterSeconds: 40 });
    assert.deepEqual(limiter.take('b'), { allowed: true }, 'another key has its own window');
    time.advance(39_499);
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterSeconds: 1 });
    time.advance(1);
    for (let index = 0; index < 3; index++)
      assert.deepEqual(limiter.take('a'), { allowed: true }, 'a new window starts, with its own count');
    assert.deepEqual(limiter.take('a'), { allowed: false, retryAfterSeconds: 60 });
  });

  it('does not count a refused attempt: one taken back after a refusal lets the next one through', () => {
    const limiter = new RateLimiter({ max: 2, windowMs: MINUTE }, manualClock().clock);
    limiter.take('a');
    limiter.take('a');
    assert.equal(limiter.take('a').allowed, false);
    assert.equal(limiter.take('a').allowed, false);
    limiter.release('a');
    assert.equal(limiter.take('a').allowed, true);
  });

  it('peek counts nothing; release takes back one attempt of the current window only', () => {
    const time = manualClock();
    const limiter = new RateLimiter({ max: 2, windowMs: MINUTE }, time.clock);
    limiter.release('a');
    for (let index = 0; index < 5; index++) assert.deepEqual(limiter.peek('a'), { allowed: true });
    limiter.record('a');
    limiter.record('a');
    assert.equal(limiter.peek('a').allowed, false);
    limiter.release('a');
    assert.equal(limiter.peek('a').allowed, true, 'one attempt taken back');
    limiter.release('a');
    limiter.release('a');
    limiter.record('a');
    limiter.record('a');
    assert.equal(limiter.peek('a').allowed, false, 'releases never go below zero');
    time.advance(MINUTE);
    limiter.release('a');
    limiter.record('a');
    assert.equal(limiter.peek('a').allowed, true, 'a release after the window ended changes nothing');
  });

  it('keeps counting live windows while it forgets ended ones among many keys', () => {
    const time = manualClock();
    const limiter = new RateLimiter({ max: 1, windowMs: MINUTE }, time.clock);
    for (let index = 0; index < 9_999; index++) limiter.take(`old-${index}`);
    time.advance(30_000);
    limiter.take('live');
    time.advance(30_000);
    limiter.take('fresh');
    assert.equal(limiter.take('live').allowed, false, 'a window still running is kept');
    assert.equal(limiter.take('fresh').allowed, false);
    assert.equal(limiter.take('old-1').allowed, true, 'an ended window is forgotten');
  });

  it('stays bounded under a flood of new addresses: at its bound, the next new window drops every ended one', () => {
    const time = manualClock();
    const limiter = new RateLimiter({ max: 1, windowMs: MINUTE }, time.clock);
    for (let index = 0; index < SWEEP_AT / 2; index++) limiter.take(`early-${index}`);
    time.advance(MINUTE / 2);
    for (let index = 0; index < SWEEP_AT / 2 - 1; index++) limiter.take(`later-${index}`);
    time.advance(MINUTE / 2);
    limiter.take('below-the-bound');
    assert.equal(limiter.size, SWEEP_AT, 'below its bound it keeps ended windows (nothing to sweep yet)');
    limiter.take('at-the-bound');
    assert.equal(limiter.size, SWEEP_AT / 2 + 1, 'the early windows, ended exactly now, are gone');
    assert.equal(limiter.take('later-0').allowed, false, 'a running window survives the sweep');
  });
});

describe('rate limiter: several relay processes behind one balancer', () => {
  it('each process allows its share of the limit, rounded up and never none, so together they allow about the limit', () => {
    assert.deepEqual(shareOf({ max: 10, windowMs: MINUTE }, 1), { max: 10, windowMs: MINUTE });
    assert.deepEqual(shareOf({ max: 10, windowMs: MINUTE }, 2), { max: 5, windowMs: MINUTE });
    assert.equal(shareOf({ max: 10, windowMs: MINUTE }, 3).max, 4);
    assert.equal(shareOf({ max: 1, windowMs: MINUTE }, 4).max, 1);
  });
});

describe('sign-in guard', () => {
  it('refuses a name from one address after 5 failures, with the wait of its 15-minute window, and not other names or addresses', () => {
    const time = manualClock();
    const guard = new SignInGuard(time.clock);
    for (let index = 0; index < 5; index++) assert.equal(fail(guard, 'ada', '10.0.0.1').allowed, true);
    time.advance(1000);
    const refused = guard.admit('ada', '10.0.0.1');
    assert.equal(refused.allowed, false);
    assert.deepEqual(refused, { allowed: false, reason: 'limited', retryAfterSeconds: 899 });
    assert.equal(guard.admit('Ada', '10.0.0.1').allowed, false, 'names are compared in any case');
    assert.equal(fail(guard, 'bob', '10.0.0.1').allowed, true, 'another name from there');
    time.advance(15 * MINUTE);
    assert.equal(guard.admit('ada', '10.0.0.1').allowed, true, 'the window ended');
  });

  it('refuses an address after 10 failures, whatever the names, while other addresses go on', () => {
    const time = manualClock();
    const guard = new SignInGuard(time.clock);
    for (let index = 0; index < 10; index++)
      assert.equal(fail(guard, `name-${index}`, '10.0.0.2').allowed, true, `failure ${index + 1}`);
    const refused = guard.admit('someone-new', '10.0.0.2');
    assert.deepEqual(refused, { allowed: false, reason: 'limited', retryAfterSeconds: 900 });
    assert.equal(guard.admit('someone-new', '10.0.0.3').allowed, true);
  });

  it('takes back a failure counted while the check ran when the password was right', () => {
    const time = manualClock();
    const guard = new SignInGuard(time.clock);
    for (let index = 0; index < 4; index++) fail(guard, 'ada', '10.0.0.4');
    const right = guard.admit('ada', '10.0.0.4');
    assert.ok(right.allowed);
    right.attempt.succeeded();
    right.attempt.failed();
    assert.equal(fail(guard, 'ada', '10.0.0.4').allowed, true, 'the fifth failure is still allowed');
    assert.equal(guard.admit('ada', '10.0.0.4').allowed, false);
  });

  it('answers the longest wait when several limits refuse at once', () => {
    const guard = new SignInGuard(manualClock().clock);
    for (let index = 0; index < 5; index++) fail(guard, 'ada', '10.0.1.1');
    // The name waits a second, the name from this address the rest of its 15 minutes.
    assert.deepEqual(guard.admit('ada', '10.0.1.1'), {
      allowed: false,
      reason: 'limited',
      retryAfterSeconds: 900,
    });
  });

  it('a right password from an address gives that address its attempt back', () => {
    const guard = new SignInGuard(manualClock().clock);
    for (let index = 0; index < 9; index++) fail(guard, `name-${index}`, '10.0.2.1');
    const right = guard.admit('ada', '10.0.2.1');
    assert.ok(right.allowed);
    right.attempt.succeeded();
    assert.equal(fail(guard, 'someone', '10.0.2.1').allowed, true, 'the tenth failure is still allowed');
    assert.equal(guard.admit('someone-else', '10.0.2.1').allowed, false);
  });

  it('a right password takes back its own count for the name, wherever the guesses came from', () => {
    const guard = new SignInGuard(manualClock().clock);
    for (let index = 0; index < 3; index++) fail(guard, 'ada', `10.0.3.${index}`);
    const right = guard.admit('ada', '10.0.4.1');
    assert.ok(right.allowed);
    right.attempt.succeeded();
    fail(guard, 'ada', '10.0.5.1');
    assert.equal(guard.admit('ada', '10.0.6.1').allowed, true, 'four failures of the name: no wait yet');
  });

  it('slows one name guessed from many addresses by a wait that doubles from 1 s to at most a minute', () => {
    const time = manualClock();
    const guard = new SignInGuard(time.clock);
    for (let index = 0; index < 4; index++) fail(guard, 'ada', `10.1.0.${index}`);
    const waits: number[] = [];
    for (let index = 0; index < 9; index++) {
      assert.equal(fail(guard, 'ada', `10.2.0.${index}`).allowed, true, `attempt ${index + 5}`);
      const refused = guard.admit('ada', `10.3.0.${index}`);
      assert.equal(refused.allowed, false);
      const wait = refused.allowed ? 0 : refused.retryAfterSeconds;
      waits.push(wait);
      time.advance(wait * 1000 - 1);
      assert.equal(guard.admit('ada', `10.3.0.${index}`).allowed, false, 'not a moment early');
      time.advance(1);
    }
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    const right = guard.admit('ada', '10.4.0.1');
    assert.ok(right.allowed);
    right.attempt.succeeded();
    assert.equal(guard.admit('ada', '10.4.0.2').allowed, true, 'a right password gives back the wait');
    time.advance(15 * MINUTE);
    for (let index = 0; index < 4; index++) fail(guard, 'ada', `10.5.0.${index}`);
    assert.equal(guard.admit('ada', '10.5.0.9').allowed, true, 'a new window starts free');
  });

  it('checks at most 4 passwords at once: the 5th is busy for a second, until one ends', () => {
    const guard = new SignInGuard(manualClock().clock);
    const running = Array.from({ length: 4 }, (_, index) => guard.admit(`name-${index}`, `10.6.0.${index}`));
    assert.ok(running.every((admission) => admission.allowed));
    assert.deepEqual(guard.admit('fifth', '10.6.0.9'), {
      allowed: false,
      reason: 'busy',
      retryAfterSeconds: 1,
    });
    const first = running[0]!;
    assert.ok(first.allowed);
    first.attempt.failed();
    first.attempt.failed();
    const next = guard.admit('fifth', '10.6.0.9');
    assert.equal(next.allowed, true);
    assert.deepEqual(guard.admit('sixth', '10.6.0.8'), {
      allowed: false,
      reason: 'busy',
      retryAfterSeconds: 1,
    });
  });

  it('keeps its verdicts while it holds many names', () => {
    const time = manualClock();
    const guard = new SignInGuard(time.clock);
    for (let index = 0; index < 5; index++) fail(guard, 'ada', `10.7.0.${index}`);
    for (let index = 0; index < 10_000; index++)
      fail(guard, `many-${index}`, `10.8.${index >> 8}.${index & 255}`);
    assert.equal(guard.admit('ada', '10.9.0.1').allowed, false, 'the name still waits');
    time.advance(16 * MINUTE);
    fail(guard, 'one-more', '10.9.0.2');
    assert.equal(guard.admit('ada', '10.9.0.3').allowed, true);
  });
});
