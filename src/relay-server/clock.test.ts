/**
 * The relay's clock and timers: the system's unless a test names an offset file, and purge timers that
 * fire, can be cleared, and never keep a stopped relay's process alive.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { within } from '../../test/support/wait-for.js';
import { clockFromEnvironment, systemClock, systemTimers } from './clock.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-clock-'));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("the relay's clock", () => {
  it('is the system clock when no offset file is named', () => {
    assert.equal(clockFromEnvironment({}), systemClock);
    assert.equal(clockFromEnvironment({ NOTIFY_RELAY_CLOCK_OFFSET_FILE: '' }), systemClock);
  });

  it('runs ahead by the milliseconds the offset file holds, read at each call; no file or no number is no offset', () => {
    const file = join(folder, 'offset');
    const clock = clockFromEnvironment({ NOTIFY_RELAY_CLOCK_OFFSET_FILE: file });
    const near = (actual: number, expected: number): void =>
      assert.ok(Math.abs(actual - expected) < 1000, `${actual} is not near ${expected}`);
    near(clock(), Date.now());
    writeFileSync(file, '3600000\n');
    near(clock(), Date.now() + 3_600_000);
    writeFileSync(file, 'soon');
    near(clock(), Date.now());
  });
});

describe("the relay's timers", () => {
  it('fire after their delay, and never hold the process open', async () => {
    let timer: unknown;
    await within(
      new Promise<void>((resolve) => {
        timer = systemTimers.set(resolve, 5);
      }),
      'the timer to fire',
    );
    assert.equal((timer as NodeJS.Timeout).hasRef(), false);
  });

  it('a cleared one does not fire', async () => {
    let fired = false;
    systemTimers.clear(systemTimers.set(() => (fired = true), 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fired, false);
  });
});
