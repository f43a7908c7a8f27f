import { InvalidRequestError } from './errors.js';
import { isJsonObject } from './fields.js';
import { normalizePriority, priorityRank, type Priority } from './priority.js';

/** Day names as `days` spells them; index = JavaScript's getUTCDay() (0 = Sunday). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * One quiet window in local wall-clock time: from `from` to `to` (HH:MM), starting on each of `days`.
 * A window whose `to` is not after its `from` ends the next day (22:00-07:00 spans midnight).
 */
export interface QuietWindow {
  from: string;
  to: string;
  days: Weekday[];
}

/** config.json `quietHours`: when toasts and sounds below `minimumPriority` keep quiet. */
export interface QuietHours {
  windows: QuietWindow[];
  /** The lowest priority that still alerts inside a window. */
  minimumPriority: Priority;
  /** An IANA zone (Europe/Berlin); absent = the machine's local zone, read at each use. */
  timeZone?: string;
}

export const DEFAULT_QUIET_MINIMUM_PRIORITY: Priority = 'critical';
export const MAX_QUIET_WINDOWS = 20;
const FIELDS = ['windows', 'minimumPriority', 'timeZone'];
const WINDOW_FIELDS = ['from', 'to', 'days'];
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const EXAMPLE = '{"windows": [{"from": "22:00", "to": "07:00"}], "minimumPriority": "critical"}';

const fail = (message: string): never => {
  throw new InvalidRequestError(`quietHours${message}`);
};

/**
 * Validates a `quietHours` value (config.json, PATCH /v1/settings); null or absent = no quiet hours.
 * Every message starts with the field's path, so a person sees which value to fix.
 */
export function parseQuietHours(value: unknown): QuietHours | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) return fail(` must be an object such as ${EXAMPLE}, or null for none`);
  const unknown = Object.keys(value).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) fail(`: unknown field "${unknown}"; allowed fields are ${FIELDS.join(', ')}`);
  const { windows, minimumPriority, timeZone } = value;
  if (!Array.isArray(windows) || windows.length === 0 || windows.length > MAX_QUIET_WINDOWS)
    fail(
      `.windows must be a list of 1 to ${MAX_QUIET_WINDOWS} windows such as {"from": "22:00", "to": "07:00"}`,
    );
  const result: QuietHours = {
    windows: (windows as unknown[]).map((window, index) => parseWindow(window, `.windows[${index}]`)),
    minimumPriority: DEFAULT_QUIET_MINIMUM_PRIORITY,
  };
  if (minimumPriority !== undefined && minimumPriority !== null) {
    const priority = typeof minimumPriority === 'string' ? normalizePriority(minimumPriority) : undefined;
    result.minimumPriority =
      priority ??
      fail('.minimumPriority must be low, normal, high, or critical (the lowest that still alerts)');
  }
  if (timeZone !== undefined && timeZone !== null) {
    if (typeof timeZone !== 'string' || !isTimeZone(timeZone))
      fail('.timeZone must be an IANA time zone such as Europe/Berlin, or absent for the local zone');
    result.timeZone = timeZone as string;
  }
  return result;
}

function parseWindow(value: unknown, path: string): QuietWindow {
  if (!isJsonObject(value)) return fail(`${path} must be an object such as {"from": "22:00", "to": "07:00"}`);
  const unknown = Object.keys(value).find((field) => !WINDOW_FIELDS.includes(field));
  if (unknown !== undefined)
    fail(`${path}: unknown field "${unknown}"; allowed fields are ${WINDOW_FIELDS.join(', ')}`);
  for (const field of ['from', 'to'] as const) {
    const time = value[field];
    if (typeof time !== 'string' || !TIME.test(time))
      fail(`${path}.${field} must be a local time HH:MM from 00:00 to 23:59, such as "22:00"`);
  }
  const from = value['from'] as string;
  const to = value['to'] as string;
  if (from === to)
    fail(
      `${path}: from and to are both ${from}; a window needs two different times (22:00 to 07:00 spans midnight)`,
    );
  const days = value['days'];
  if (days === undefined || days === null) return { from, to, days: [...WEEKDAYS] };
  if (
    !Array.isArray(days) ||
    days.length === 0 ||
    !days.every((day) => (WEEKDAYS as readonly unknown[]).includes(day))
  )
    fail(`${path}.days must be a non-empty list of ${WEEKDAYS.join(', ')} (the days the window starts on)`);
  return { from, to, days: WEEKDAYS.filter((day) => (days as unknown[]).includes(day)) };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether quiet hours hold back the toast and sound of a notification of this priority at `now`:
 * quiet hours are set, `now` is inside a window, and the priority is below the one that still alerts.
 */
export function quietHoldsBack(quiet: QuietHours | undefined, priority: Priority, now: number): boolean {
  if (!quiet || priorityRank(priority) >= priorityRank(quiet.minimumPriority)) return false;
  return quietUntil(quiet, now) !== undefined;
}

/**
 * When something quiet hours held until `heldUntil` (the end of the old quiet time) is due after they
 * changed at `now`: at the end of the new quiet time when that still holds this priority back, else at
 * once; never before `earliest` (a route's delay).
 */
export function retimedAfterChange(
  after: QuietHours | undefined,
  priority: Priority,
  now: number,
  earliest = now,
): number {
  const quietEnd = quietHoldsBack(after, priority, now) ? quietUntil(after!, now)! : now;
  return Math.max(now, earliest, quietEnd);
}

/**
 * The instant the quiet time around `now` ends (epoch ms), following windows that touch or overlap;
 * undefined when `now` is not quiet. Each window's start and end are the first instants at which the
 * wall clock shows its times, so a DST switch inside a window shortens or lengthens it by the hour,
 * and a wall time skipped by a switch (02:30 in a spring-forward night) counts from the switch.
 */
export function quietUntil(quiet: QuietHours, now: number): number | undefined {
  const zone = quiet.timeZone ?? localZone();
  let end: number | undefined;
  // Adjacent windows (Mon 22:00-07:00, then Tue 07:00-09:00) make one quiet time; a week bounds the walk.
  for (let at = now, step = 0; step < 8; step++) {
    const windowEnd = latestEndAround(quiet.windows, at, zone);
    if (windowEnd === undefined) break;
    end = windowEnd;
    at = windowEnd;
  }
  return end;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

function latestEndAround(windows: readonly QuietWindow[], at: number, zone: string): number | undefined {
  const today = Math.floor(wallOf(at, zone) / DAY) * DAY;
  let latest: number | undefined;
  for (const window of windows) {
    const from = minutesOf(window.from) * MINUTE;
    const to = minutesOf(window.to) * MINUTE;
    const length = to > from ? to - from : DAY - from + to;
    // A window counts on the day it starts: today's, or yesterday's when it spans midnight.
    for (const day of [today, today - DAY]) {
      if (!window.days.includes(WEEKDAYS[new Date(day).getUTCDay()]!)) continue;
      const start = instantOfWall(day + from, zone);
      const end = instantOfWall(day + from + length, zone);
      if (start <= at && at < end && (latest === undefined || end > latest)) latest = end;
    }
  }
  return latest;
}

function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** The zone the machine's clock shows now: read each time, so a change of TZ counts at once. */
function localZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time `instant` shows in `zone`, as epoch ms of that same wall time in UTC. */
export function wallOf(instant: number, zone: string): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
  const milliseconds = instant - Math.floor(instant / 1000) * 1000;
  return (
    Date.UTC(
      part['year']!,
      part['month']! - 1,
      part['day']!,
      part['hour']!,
      part['minute']!,
      part['second']!,
    ) + milliseconds
  );
}

/**
 * The first instant at which the wall clock in `zone` shows `wall` (epoch ms of a wall time read as
 * UTC): the earlier of two when a fall-back switch shows it twice, the switch itself when a
 * spring-forward one skips it.
 */
export function instantOfWall(wall: number, zone: string): number {
  const before = wall - (wallOf(wall - DAY, zone) - (wall - DAY));
  const after = wall - (wallOf(wall + DAY, zone) - (wall + DAY));
  const exact = [before, after].filter((instant) => wallOf(instant, zone) === wall);
  if (exact.length > 0) return Math.min(...exact);
  // Skipped: the switch lies between the two readings; find the first instant showing a later time.
  let low = Math.min(before, after);
  let high = Math.max(before, after);
  while (high - low > 1000) {
    const middle = low + Math.max(1000, Math.floor((high - low) / 2000) * 1000);
    if (wallOf(middle, zone) >= wall) high = middle;
    else low = middle;
  }
  return high;
}
