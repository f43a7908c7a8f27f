import type { Logger } from '../log/logger.js';
import type { NotificationStore } from '../store/notification-store.js';
import type { Clock } from './clock.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes dismissed and resolved notifications older than retentionDays (measured from their last
 * change). Active ones are kept forever. `tick` is exposed so tests drive it without waiting.
 */
export class RetentionJob {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: NotificationStore,
    private readonly retentionDays: () => number,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  tick(now = this.clock()): number {
    const removed = this.store.pruneTerminalBefore(now - this.retentionDays() * DAY_MS);
    if (removed > 0) this.log.info(`retention: removed ${removed} dismissed or resolved notifications`);
    return removed;
  }

  start(intervalMs: number): void {
    this.tick();
    this.#timer = setInterval(() => {
      try {
        this.tick();
      } catch (error) {
        this.log.error(`retention: pruning failed: ${(error as Error).message}`);
      }
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
