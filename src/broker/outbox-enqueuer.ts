import type { ProviderKind } from '../delivery/provider.js';
import { planDeliveries, type ProviderFacts } from '../domain/delivery/delivery-plan.js';
import type { PlannedItem } from '../domain/delivery/delivery-plan.js';
import type { Route } from '../domain/delivery/route.js';
import type { NotificationRecord } from '../domain/notification.js';
import { quietHoldsBack, quietUntil, type QuietHours } from '../domain/quiet-hours.js';
import type { OutboxStore } from '../store/outbox-store.js';
import type { ProviderStore } from '../store/provider-store.js';
import type { RouteStore } from '../store/route-store.js';
import type { NotificationChange } from './change-feed.js';

export interface OutboxEnqueuerDeps {
  outbox: OutboxStore;
  routes: RouteStore;
  providers: ProviderStore;
  kinds: readonly ProviderKind[];
  quietHours?: () => QuietHours | undefined;
}

interface LiveRoutes {
  routes: Route[];
  providers: Map<string, ProviderFacts>;
}

/**
 * Writes the outbox items of a notification change; called inside the change's transaction, so it
 * does no network I/O and only SQLite work. The enabled routes are cached until management changes them.
 */
export class OutboxEnqueuer {
  #live: LiveRoutes | undefined;

  constructor(private readonly deps: OutboxEnqueuerDeps) {}

  /** Management changed a provider or route: read them again on the next write. */
  invalidate(): void {
    this.#live = undefined;
  }

  /** Whether an enabled route exists: without one no change can give the dispatcher work. */
  hasLiveRoutes(): boolean {
    return this.live().routes.length > 0;
  }

  enqueue(change: NotificationChange): number {
    const live = this.live();
    // Without routes only a status change can matter: it cancels sends that still wait (a route
    // disabled or deleted during its delay).
    if (live.routes.length === 0 && change.kind !== 'status') return 0;
    const items = planDeliveries({
      change:
        change.kind === 'status' ? { kind: 'status', previous: change.previous } : { kind: change.kind },
      record: change.record,
      routes: live.routes,
      providers: live.providers,
      sends: change.kind === 'created' ? new Map() : this.deps.outbox.sendsOf(change.record.id),
    });
    if (items.length === 0) return 0;
    // At the change's own time: a route's delay counts from the moment the notification changed.
    const now = change.record.updatedAt;
    this.deps.outbox.enqueue(change.record.id, this.holdForQuietHours(items, change.record, live, now), now);
    return items.length;
  }

  /**
   * Inside quiet hours, a send below their priority waits for their end unless its route sends during
   * them (issue 20): its due time is in the database, so the wait survives a restart.
   */
  private holdForQuietHours(
    items: PlannedItem[],
    record: NotificationRecord,
    live: LiveRoutes,
    now: number,
  ): PlannedItem[] {
    const quiet = this.deps.quietHours?.();
    if (!quietHoldsBack(quiet, record.priority, now)) return items;
    const notBefore = quietUntil(quiet!, now)!;
    return items.map((item) =>
      item.operation === 'send' &&
      !live.routes.find((route) => route.id === item.routeId)?.sendDuringQuietHours
        ? { ...item, notBefore }
        : item,
    );
  }

  private live(): LiveRoutes {
    if (this.#live) return this.#live;
    const providers = new Map<string, ProviderFacts>();
    for (const provider of this.deps.providers.list()) {
      const kind = this.deps.kinds.find((candidate) => candidate.id === provider.kind);
      // A provider whose kind this build does not know can never deliver: no items for it.
      providers.set(provider.id, {
        enabled: provider.enabled && kind !== undefined,
        lifecycle: kind?.lifecycle ?? { update: false, clear: false },
      });
    }
    this.#live = { routes: this.deps.routes.listLive(), providers };
    return this.#live;
  }
}
