const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/** A route's wait as typed in its form: seconds, or 90s, 5m, 1h; blank is 0 (send at once). */
export function parseDelay(text: string): number {
  if (text.trim() === '') return 0;
  const match = /^\s*(\d+)\s*([smh]?)\s*$/i.exec(text);
  if (!match)
    throw new Error(
      `Wait before sending must be a number of seconds, or of minutes or hours such as 90s, 5m or 1h (0 sends at once), not '${text}'.`,
    );
  return Number(match[1]) * UNIT_SECONDS[match[2]!.toLowerCase()]!;
}

/** A route's delay as a person writes it: 90s, 5m, 1h (as notifyctl routes shows it). */
export function delayText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
