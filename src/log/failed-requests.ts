import type { Logger } from './logger.js';

const WINDOW_MS = 60_000;

/** Failed requests logged one by one in a minute; the rest are counted into one summary line. */
export const FAILED_REQUESTS_LOGGED_PER_MINUTE = 20;

/**
 * Any process on the machine (or a web page) can send failing requests without a token, as fast as it
 * likes. The first few of each minute are logged in full, so a real mistake stays visible; the rest
 * become "N more failed requests in the last minute", written when the minute ends or the broker stops.
 */
export class FailedRequestLog {
  #windowStart: number | undefined;
  #logged = 0;
  #suppressed = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  record(status: number, line: string): void {
    const now = this.now();
    if (this.#windowStart !== undefined && now - this.#windowStart >= WINDOW_MS) this.flush();
    if (this.#windowStart === undefined) this.#windowStart = now;
    if (this.#logged < FAILED_REQUESTS_LOGGED_PER_MINUTE) {
      this.#logged++;
      this.log.warn(line);
      return;
    }
    this.#suppressed.set(status, (this.#suppressed.get(status) ?? 0) + 1);
    // Only a minute with something to summarize keeps a timer, and it never holds the process open.
    this.#timer ??= setTimeout(() => this.flush(), this.#windowStart + WINDOW_MS - now).unref();
  }

  /** Writes the summary of the current minute, if anything was held back, and starts a new minute. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const counts = [...this.#suppressed.entries()].sort(([a], [b]) => a - b);
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    if (total > 0) {
      const byStatus = counts.map(([status, count]) => `${status}: ${count}`).join(', ');
      const requests = total === 1 ? 'request' : 'requests';
      this.log.warn(`${total} more failed ${requests} in the last minute (${byStatus})`);
    }
    this.#suppressed.clear();
    this.#logged = 0;
    this.#windowStart = undefined;
  }
}
