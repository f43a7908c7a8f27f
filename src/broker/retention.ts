import type { Logger } from '../log/logger.js';
import type { NotificationStore } from '../store/notification-store.js';
import type { WriteQueue } from '../store/write-queue.js';
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
    private readonly writes: WriteQueue,
    private readonly retentionDays: () => number,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async tick(now = this.clock()): Promise<number> {
    const cutoff = now - this.retentionDays() * DAY_MS;
    const removed = await this.writes.run(() => this.store.pruneTerminalBefore(cutoff));
    if (removed > 0) this.log.info(`retention: removed ${removed} dismissed or resolved notifications`);
    return removed;
  }

  start(intervalMs: number): void {
    const run = () =>
      void this.tick().catch((error: unknown) =>
        this.log.error(`retention: pruning failed: ${(error as Error).message}`),
      );
    run();
    this.#timer = setInterval(run, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
