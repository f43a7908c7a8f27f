/** How long ago, in the fewest characters a person reads at a glance: "now", "5m", "3h", "2d". */
export function age(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** One formatter for every timestamp: building one per call (toLocaleString) is slow over long lists. */
const LOCAL_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A timestamp in the person's own locale and time zone. */
export function when(iso: string | null | undefined): string {
  return iso ? LOCAL_TIME.format(new Date(iso)) : '—';
}
