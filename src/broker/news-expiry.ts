import { resolvesAfterMs, shortestResolveMs } from '../domain/attention.js';
import type { TypeCatalog } from '../domain/type-definition.js';
import type { Logger } from '../log/logger.js';
import type { NotificationStore } from '../store/notification-store.js';
import type { Clock } from './clock.js';
import type { NotificationService } from './notification-service.js';

/** Notifications resolved per round at most: a backlog goes in steps, never holding the writer long. */
const ROUND_LIMIT = 200;

/**
 * Resolves news by itself (issue 20): an active notification whose type needs no person (completed,
 * info, ...) and that has not changed for its type's time (resolveAfterMinutes) is resolved through
 * the service, as a person would, so toasts, the tray, streams and providers follow. Due times come
 * from the stored updatedAt, never from timers in memory: a restart loses nothing. `tick` is exposed so
 * tests drive it without waiting.
 */
export class NewsExpiryJob {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      store: NotificationStore;
      service: NotificationService;
      types: () => TypeCatalog;
      clock: Clock;
      log: Logger;
    },
  ) {}

  async tick(now = this.deps.clock()): Promise<number> {
    const types = this.deps.types();
    const candidates = this.deps.store.activeUnchangedSince(now - shortestResolveMs(types), ROUND_LIMIT);
    let resolved = 0;
    for (const { id, type, updatedAt } of candidates) {
      const after = resolvesAfterMs(type, types);
      if (after === undefined || updatedAt + after > now) continue;
      const record = await this.deps.service.resolveUnchanged(id, updatedAt);
      if (record?.status === 'resolved') resolved++;
    }
    if (resolved > 0) this.deps.log.info(`resolved ${resolved} news notification(s) after their time`);
    return resolved;
  }

  start(intervalMs: number): void {
    const run = () =>
      void this.tick().catch((error: unknown) =>
        this.deps.log.error(`resolving news failed: ${(error as Error).message}`),
      );
    run();
    this.#timer = setInterval(run, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
