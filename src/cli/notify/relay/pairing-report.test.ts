/**
 * What `notify relay pair` shows while it waits: on a terminal one line rewritten each second and wiped
 * before anything else is printed; in a log a line at the start and at each whole minute left.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { RecordedIo } from '../../../../test/support/relay-in-process.js';
import { PairingReport } from './pairing-report.js';

const CLEAR = '\r\x1b[K';

function clock(t: TestContext, start: number): { now: () => number; pass: (seconds: number) => void } {
  t.mock.timers.enable({ apis: ['setInterval'] });
  let now = start;
  return {
    now: () => now,
    pass(seconds) {
      for (let second = 0; second < seconds; second++) {
        now += 1000;
        t.mock.timers.tick(1000);
      }
    },
  };
}

describe('the pairing countdown', () => {
  it('in a log: a line at the start and at each whole minute left, none after it stops', (t) => {
    const io = new RecordedIo({}, false);
    const report = new PairingReport(false, io);
    const time = clock(t, 1_000_000);
    report.startCountdown(1_000_000 + 121_500, time.now);
    const line = (left: string) => `Waiting for approval: ${left} left (Ctrl+C cancels).\n`;
    time.pass(3);
    assert.equal(io.stderr, line('2:02') + line('2:00'));
    time.pass(58);
    assert.equal(io.stderr, line('2:02') + line('2:00'));
    time.pass(1);
    assert.equal(io.stderr, line('2:02') + line('2:00') + line('1:00'));
    time.pass(59);
    assert.equal(io.stderr, line('2:02') + line('2:00') + line('1:00'));
    time.pass(1);
    assert.equal(io.stderr, line('2:02') + line('2:00') + line('1:00') + line('0:00'));
    report.stopCountdown();
    const shown = io.stderr;
    time.pass(200);
    assert.equal(io.stderr, shown);
    assert.deepEqual(io.rewritten, []);
  });

  it('on a terminal: one line rewritten each second, wiped before the next line and when it stops', (t) => {
    const io = new RecordedIo({}, true);
    const report = new PairingReport(false, io);
    const time = clock(t, 0);
    report.startCountdown(65_000, time.now);
    time.pass(2);
    assert.deepEqual(io.rewritten, [
      `${CLEAR}Waiting for approval: 1:05 left (Ctrl+C cancels).`,
      `${CLEAR}Waiting for approval: 1:04 left (Ctrl+C cancels).`,
      `${CLEAR}Waiting for approval: 1:03 left (Ctrl+C cancels).`,
    ]);
    report.note('The relay could not be reached (socket hang up); trying again.');
    assert.equal(io.rewritten.at(-1), CLEAR);
    assert.equal(io.stderr, 'The relay could not be reached (socket hang up); trying again.\n');
    // Wiped once: a second line needs no second wipe.
    report.transition({ state: 'unreachable' }, 'one', 'two');
    assert.equal(io.rewritten.length, 4);
    assert.equal(io.stdout, 'one\ntwo\n');
    time.pass(1);
    assert.equal(io.rewritten.at(-1), `${CLEAR}Waiting for approval: 1:02 left (Ctrl+C cancels).`);
    report.stopCountdown();
    assert.equal(io.rewritten.at(-1), CLEAR);
    const count = io.rewritten.length;
    time.pass(3);
    report.stopCountdown();
    assert.equal(io.rewritten.length, count, 'it went on after it stopped');
  });

  it('never counts below zero', (t) => {
    const io = new RecordedIo({}, true);
    const report = new PairingReport(false, io);
    const time = clock(t, 10_000);
    report.startCountdown(5_000, time.now);
    assert.deepEqual(io.rewritten, [`${CLEAR}Waiting for approval: 0:00 left (Ctrl+C cancels).`]);
    report.stopCountdown();
  });

  it('prints the state objects with --json and the lines without it', () => {
    const json = new RecordedIo({});
    new PairingReport(true, json).transition({ state: 'slow_down', interval: 10 }, 'not shown');
    assert.equal(json.stdout, '{"state":"slow_down","interval":10}\n');
    const text = new RecordedIo({});
    new PairingReport(false, text).transition({ state: 'slow_down' });
    assert.equal(text.stdout, '');
  });
});
