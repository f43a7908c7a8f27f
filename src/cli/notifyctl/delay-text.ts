import { CliError } from '../notify/failure.js';

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/**
 * `--delay` of `notifyctl routes`: seconds, or a number with s, m or h (90, 90s, 5m, 1h). The broker
 * checks the range and says it (0 to a day).
 */
export function parseDelay(text: string): number {
  const match = /^\s*(\d+)\s*([smh]?)\s*$/i.exec(text);
  if (!match) {
    throw new CliError(
      `--delay must be a number of seconds, or of minutes or hours such as 90s, 5m or 1h (0 sends at once), not '${text}'.`,
    );
  }
  return Number(match[1]) * UNIT_SECONDS[match[2]!.toLowerCase()]!;
}

/** A route's delay as a person writes it: 90s, 5m, 1h. */
export function delayText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/** A time in the local zone: 14:02:05 today, with its date on another day. */
export function localTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  const sameDay =
    at.getFullYear() === now.getFullYear() &&
    at.getMonth() === now.getMonth() &&
    at.getDate() === now.getDate();
  return sameDay ? clock : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${clock}`;
}
