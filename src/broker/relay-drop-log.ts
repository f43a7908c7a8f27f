import type { Logger } from '../log/logger.js';

/** Dropped relay events written in full per minute; the rest of that minute's are counted. */
const FULL_LINES_PER_WINDOW = 5;
const WINDOW_MS = 60_000;

/**
 * The log of relay events notifyd drops (another lifecycle, no such notification): a relay that sends
 * thousands would otherwise write thousands of lines. The first few of a minute are logged as they come,
 * the others are counted and told in one summary line when the minute ends (or when notifyd stops).
 */
export class RelayDropLog {
  #logged = 0;
  #counted = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Logger) {}

  dropped(level: 'info' | 'warn', line: string): void {
    this.#timer ??= setTimeout(() => this.flush(), WINDOW_MS).unref();
    if (this.#logged < FULL_LINES_PER_WINDOW) {
      this.#logged++;
      this.log[level](line);
    } else {
      this.#counted++;
    }
  }

  /** Ends the current minute: its summary line if any were only counted. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#counted > 0) {
      this.log.warn(
        `relay: ${this.#counted} more ${this.#counted === 1 ? 'event' : 'events'} from relays dropped in the last minute (the first ${FULL_LINES_PER_WINDOW} are logged above)`,
      );
    }
    this.#logged = 0;
    this.#counted = 0;
  }
}
