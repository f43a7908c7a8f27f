import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { InvalidRequestError } from './errors.js';
import {
  instantOfWall,
  parseQuietHours,
  quietHoldsBack,
  quietUntil,
  retimedAfterChange,
  type QuietHours,
} from './quiet-hours.js';

const at = (iso: string) => Date.parse(iso);
const nights = (zone: string, from = '22:00', to = '07:00', days?: string[]): QuietHours =>
  parseQuietHours({ windows: [{ from, to, ...(days && { days }) }], timeZone: zone })!;

describe('quiet hours: is it quiet at an instant, and until when (issue 20)', () => {
  it('a window across midnight is quiet from its start to its end the next morning, and not outside', () => {
    const quiet = nights('UTC');
    assert.equal(quietUntil(quiet, at('2026-11-25T21:59:59Z')), undefined);
    assert.equal(quietUntil(quiet, at('2026-11-25T22:00:00Z')), at('2026-11-26T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-26T00:00:00Z')), at('2026-11-26T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-26T06:59:59Z')), at('2026-11-26T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-26T07:00:00Z')), undefined);
    assert.equal(quietUntil(quiet, at('2026-11-26T12:00:00Z')), undefined);
  });

  it('a window belongs to the day it starts on: Friday night is quiet into Saturday, Saturday night is not', () => {
    const quiet = nights('UTC', '22:00', '07:00', ['fri']);
    // 2026-11-27 is a Friday.
    assert.equal(quietUntil(quiet, at('2026-11-27T23:00:00Z')), at('2026-11-28T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-28T03:00:00Z')), at('2026-11-28T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-28T23:00:00Z')), undefined);
    assert.equal(quietUntil(quiet, at('2026-11-26T23:00:00Z')), undefined, 'Thursday night');
  });

  it('a daytime window and windows that touch make one quiet time', () => {
    const quiet = parseQuietHours({
      windows: [
        { from: '22:00', to: '07:00' },
        { from: '07:00', to: '09:30', days: ['sat', 'sun'] },
      ],
      timeZone: 'UTC',
    })!;
    // Friday night runs on into Saturday's late morning; Thursday night ends at 07:00.
    assert.equal(quietUntil(quiet, at('2026-11-27T23:00:00Z')), at('2026-11-28T09:30:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-26T23:00:00Z')), at('2026-11-27T07:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-28T08:00:00Z')), at('2026-11-28T09:30:00Z'));
  });

  it('Europe/Berlin, spring forward (29 March 2026): the night window is an hour shorter and ends at 07:00 summer time', () => {
    const quiet = nights('Europe/Berlin');
    // 22:00 CET on Saturday is 21:00 UTC; 07:00 CEST on Sunday is 05:00 UTC: eight hours, not nine.
    assert.equal(quietUntil(quiet, at('2026-03-28T20:59:59Z')), undefined);
    assert.equal(quietUntil(quiet, at('2026-03-28T21:00:00Z')), at('2026-03-29T05:00:00Z'));
    assert.equal(
      quietUntil(quiet, at('2026-03-29T00:59:59Z')),
      at('2026-03-29T05:00:00Z'),
      'before the switch',
    );
    assert.equal(
      quietUntil(quiet, at('2026-03-29T01:00:00Z')),
      at('2026-03-29T05:00:00Z'),
      'after the switch',
    );
    assert.equal(quietUntil(quiet, at('2026-03-29T04:59:59Z')), at('2026-03-29T05:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-03-29T05:00:00Z')), undefined, '07:00 CEST');
    assert.equal(
      quietUntil(quiet, at('2026-03-29T20:00:00Z')),
      at('2026-03-30T05:00:00Z'),
      'Sunday night, summer time',
    );
  });

  it('Europe/Berlin, fall back (25 October 2026): the night window is an hour longer and ends at 07:00 winter time', () => {
    const quiet = nights('Europe/Berlin');
    // 22:00 CEST on Saturday is 20:00 UTC; 07:00 CET on Sunday is 06:00 UTC: ten hours.
    assert.equal(quietUntil(quiet, at('2026-10-24T20:00:00Z')), at('2026-10-25T06:00:00Z'));
    assert.equal(
      quietUntil(quiet, at('2026-10-25T00:30:00Z')),
      at('2026-10-25T06:00:00Z'),
      '02:30 the first time',
    );
    assert.equal(
      quietUntil(quiet, at('2026-10-25T01:30:00Z')),
      at('2026-10-25T06:00:00Z'),
      '02:30 the second time',
    );
    assert.equal(quietUntil(quiet, at('2026-10-25T05:30:00Z')), at('2026-10-25T06:00:00Z'), '06:30 CET');
    assert.equal(quietUntil(quiet, at('2026-10-25T06:00:00Z')), undefined);
  });

  it('a window ending at a wall time the switch skips ends at the switch; one ending in the repeated hour ends the first time', () => {
    // 02:30 does not exist in Berlin on 29 March 2026: the clocks go from 02:00 CET to 03:00 CEST at 01:00 UTC.
    const spring = nights('Europe/Berlin', '23:00', '02:30');
    assert.equal(quietUntil(spring, at('2026-03-29T00:59:59Z')), at('2026-03-29T01:00:00Z'));
    assert.equal(quietUntil(spring, at('2026-03-29T01:00:00Z')), undefined);
    // 02:30 happens twice on 25 October 2026; the window ends the first time and does not come back.
    const autumn = nights('Europe/Berlin', '23:00', '02:30');
    assert.equal(quietUntil(autumn, at('2026-10-25T00:00:00Z')), at('2026-10-25T00:30:00Z'));
    assert.equal(quietUntil(autumn, at('2026-10-25T01:15:00Z')), undefined, '02:15 the second time');
  });

  it('converts wall times back to instants on ordinary days and across both switches', () => {
    assert.equal(instantOfWall(Date.UTC(2026, 2, 29, 1, 30), 'Europe/Berlin'), at('2026-03-29T00:30:00Z'));
    assert.equal(instantOfWall(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin'), at('2026-03-29T01:00:00Z'));
    assert.equal(instantOfWall(Date.UTC(2026, 2, 29, 3, 0), 'Europe/Berlin'), at('2026-03-29T01:00:00Z'));
    assert.equal(instantOfWall(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Berlin'), at('2026-10-25T00:30:00Z'));
    assert.equal(instantOfWall(Date.UTC(2026, 6, 1, 12, 0), 'America/New_York'), at('2026-07-01T16:00:00Z'));
  });

  it('without timeZone the process zone (TZ) counts, read at each use', () => {
    const script = `
      const { quietUntil, parseQuietHours } = await import(${JSON.stringify(new URL('./quiet-hours.js', import.meta.url).href)});
      const quiet = parseQuietHours({ windows: [{ from: '22:00', to: '07:00' }] });
      const first = quietUntil(quiet, Date.parse('2026-03-28T21:30:00Z'));
      process.env.TZ = 'UTC';
      const second = quietUntil(quiet, Date.parse('2026-03-28T21:30:00Z'));
      console.log(JSON.stringify([new Date(first).toISOString(), second ?? null]));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TZ: 'Europe/Berlin' },
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(output), ['2026-03-29T05:00:00.000Z', null]);
  });

  it('holds back only what is below the minimum priority, and only inside a window', () => {
    const quiet = parseQuietHours({
      windows: [{ from: '22:00', to: '07:00' }],
      minimumPriority: 'high',
      timeZone: 'UTC',
    })!;
    const night = at('2026-11-25T23:00:00Z');
    assert.equal(quietHoldsBack(quiet, 'normal', night), true);
    assert.equal(quietHoldsBack(quiet, 'high', night), false);
    assert.equal(quietHoldsBack(quiet, 'critical', night), false);
    assert.equal(quietHoldsBack(quiet, 'low', at('2026-11-25T12:00:00Z')), false);
    assert.equal(quietHoldsBack(undefined, 'low', night), false);
    assert.equal(parseQuietHours({ windows: [{ from: '22:00', to: '07:00' }] })!.minimumPriority, 'critical');
  });

  it('refuses malformed settings with a message that names the value to fix', () => {
    const CASES: [unknown, string][] = [
      [
        [],
        'quietHours must be an object such as {"windows": [{"from": "22:00", "to": "07:00"}], "minimumPriority": "critical"}, or null for none',
      ],
      [
        { windows: [] },
        'quietHours.windows must be a list of 1 to 20 windows such as {"from": "22:00", "to": "07:00"}',
      ],
      [
        { windows: [{ from: '22:00', to: '7:00' }] },
        'quietHours.windows[0].to must be a local time HH:MM from 00:00 to 23:59, such as "22:00"',
      ],
      [
        { windows: [{ from: '24:00', to: '07:00' }] },
        'quietHours.windows[0].from must be a local time HH:MM from 00:00 to 23:59, such as "22:00"',
      ],
      [
        { windows: [{ from: '22:00', to: '22:00' }] },
        'quietHours.windows[0]: from and to are both 22:00; a window needs two different times (22:00 to 07:00 spans midnight)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00', days: ['monday'] }] },
        'quietHours.windows[0].days must be a non-empty list of sun, mon, tue, wed, thu, fri, sat (the days the window starts on)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00', until: 'x' }] },
        'quietHours.windows[0]: unknown field "until"; allowed fields are from, to, days',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00' }], minimumPriority: 'urgent' },
        'quietHours.minimumPriority must be low, normal, high, or critical (the lowest that still alerts)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'Mars/Olympus' },
        'quietHours.timeZone must be an IANA time zone such as Europe/Berlin, or absent for the local zone',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00' }], zone: 'UTC' },
        'quietHours: unknown field "zone"; allowed fields are windows, minimumPriority, timeZone',
      ],
      // A time with more around it is not a time: "122:00", "22:000", "22:00 pm".
      [
        { windows: [{ from: '122:00', to: '07:00' }] },
        'quietHours.windows[0].from must be a local time HH:MM from 00:00 to 23:59, such as "22:00"',
      ],
      [
        { windows: [{ from: '22:00', to: '07:000' }] },
        'quietHours.windows[0].to must be a local time HH:MM from 00:00 to 23:59, such as "22:00"',
      ],
      [
        { windows: [{ from: ['22:00'], to: '07:00' }] },
        'quietHours.windows[0].from must be a local time HH:MM from 00:00 to 23:59, such as "22:00"',
      ],
      [
        { windows: Array.from({ length: 21 }, () => ({ from: '22:00', to: '07:00' })) },
        'quietHours.windows must be a list of 1 to 20 windows such as {"from": "22:00", "to": "07:00"}',
      ],
      [
        { windows: ['22:00-07:00'] },
        'quietHours.windows[0] must be an object such as {"from": "22:00", "to": "07:00"}',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00', days: 'mon' }] },
        'quietHours.windows[0].days must be a non-empty list of sun, mon, tue, wed, thu, fri, sat (the days the window starts on)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00', days: [] }] },
        'quietHours.windows[0].days must be a non-empty list of sun, mon, tue, wed, thu, fri, sat (the days the window starts on)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00', days: ['mon', 'Tuesday'] }] },
        'quietHours.windows[0].days must be a non-empty list of sun, mon, tue, wed, thu, fri, sat (the days the window starts on)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00' }], minimumPriority: 3 },
        'quietHours.minimumPriority must be low, normal, high, or critical (the lowest that still alerts)',
      ],
      [
        { windows: [{ from: '22:00', to: '07:00' }], timeZone: ['Europe/Berlin'] },
        'quietHours.timeZone must be an IANA time zone such as Europe/Berlin, or absent for the local zone',
      ],
    ];
    for (const [value, message] of CASES) {
      assert.throws(
        () => parseQuietHours(value),
        (error: unknown) => {
          assert.ok(error instanceof InvalidRequestError);
          assert.equal(error.message, message);
          return true;
        },
      );
    }
    assert.equal(parseQuietHours(null), undefined);
  });

  it('takes a config without quietHours, null optional fields as absent, and 20 windows', () => {
    assert.equal(parseQuietHours(undefined), undefined);
    assert.deepEqual(
      parseQuietHours({
        windows: [{ from: '22:00', to: '07:00', days: null }],
        minimumPriority: null,
        timeZone: null,
      }),
      {
        windows: [{ from: '22:00', to: '07:00', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] }],
        minimumPriority: 'critical',
      },
    );
    const twenty = Array.from({ length: 20 }, () => ({ from: '22:00', to: '07:00' }));
    assert.equal(parseQuietHours({ windows: twenty })!.windows.length, 20);
  });

  it('keeps the days of a window once each, in week order, however they were written', () => {
    const quiet = parseQuietHours({
      windows: [{ from: '22:00', to: '07:00', days: ['fri', 'mon', 'fri', 'sun'] }],
    });
    assert.deepEqual(quiet!.windows[0]!.days, ['sun', 'mon', 'fri']);
  });

  it('windows that overlap, however many, keep it quiet until the last of them ends', () => {
    // Ten windows from midnight, ending at 01:00 ... 10:00: more than the walk's steps, so the
    // latest end must be taken at once, not one window at a time.
    const windows = Array.from({ length: 10 }, (_, index) => ({
      from: '00:00',
      to: `${String(index + 1).padStart(2, '0')}:00`,
    }));
    const quiet = parseQuietHours({ windows, timeZone: 'UTC' })!;
    assert.equal(quietUntil(quiet, at('2026-11-26T00:30:00Z')), at('2026-11-26T10:00:00Z'));
  });

  it('a window starting at midnight holds back what comes in its first second', () => {
    const quiet = nights('UTC', '00:00', '06:00');
    assert.equal(quietUntil(quiet, at('2026-11-26T00:00:00.500Z')), at('2026-11-26T06:00:00Z'));
    assert.equal(quietUntil(quiet, at('2026-11-25T23:59:59.500Z')), undefined);
  });

  it('quiet around the clock still ends within a week, so what it holds back is never lost', () => {
    // In a child with a deadline: a walk that never ends must fail this test, not hang the suite.
    const script = `
      const { quietUntil, parseQuietHours } = await import(${JSON.stringify(new URL('./quiet-hours.js', import.meta.url).href)});
      const always = parseQuietHours({
        windows: [{ from: '00:00', to: '12:00' }, { from: '12:00', to: '00:00' }],
        timeZone: 'UTC',
      });
      console.log(quietUntil(always, Date.parse('2026-11-26T03:00:00Z')));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 5000,
    });
    const now = at('2026-11-26T03:00:00Z');
    const end = Number(output);
    assert.ok(end > now + 86_400_000 && end <= now + 8 * 86_400_000, output);
  });
});

describe('quiet hours changed while something waits for their end (issue 20)', () => {
  const night = nights('UTC');
  const late = nights('UTC', '22:00', '09:00');
  const midnightUtc = at('2026-11-26T00:00:00Z');

  it('with quiet hours removed or no longer holding it back, it is due at once', () => {
    assert.equal(retimedAfterChange(undefined, 'normal', midnightUtc), midnightUtc);
    assert.equal(
      retimedAfterChange(parseQuietHours({ ...night, minimumPriority: 'normal' }), 'normal', midnightUtc),
      midnightUtc,
    );
  });

  it('with new quiet hours that still hold it back, it waits for their end', () => {
    assert.equal(retimedAfterChange(late, 'normal', midnightUtc), at('2026-11-26T09:00:00Z'));
    assert.equal(retimedAfterChange(late, 'critical', midnightUtc), midnightUtc, 'critical alerts');
  });

  it("a route's delay that ends later than both still counts", () => {
    const delayed = at('2026-11-26T10:00:00Z');
    assert.equal(retimedAfterChange(late, 'normal', midnightUtc, delayed), delayed);
    assert.equal(retimedAfterChange(undefined, 'normal', midnightUtc, delayed), delayed);
    assert.equal(retimedAfterChange(undefined, 'normal', midnightUtc, midnightUtc - 1000), midnightUtc);
  });
});
