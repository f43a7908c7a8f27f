import type { DeliveryEvent, OutboundNotification } from '../../delivery/provider.js';
import type { NotificationRecord, Status } from '../notification.js';
import { formatTimestamp } from '../notification.js';
import { routeMatches, type Route } from './route.js';

/** What the planner needs to know of a route's provider. */
export interface ProviderFacts {
  enabled: boolean;
  lifecycle: { update: boolean; clear: boolean };
}

export type NotificationChangeKind =
  { kind: 'created' } | { kind: 'updated' } | { kind: 'status'; previous: Status };

/**
 * One outbox item a change causes. Its event (deliveryEvent) and idempotency key (idempotencyKey)
 * follow from the operation and the notification, so the outbox derives them when it takes the item.
 */
export interface PlannedItem {
  routeId: string;
  providerId: string;
  operation: 'send' | 'update' | 'clear';
  /** The route's IncludeMessage: its payload (outboundOf) is built when the item leaves the intake. */
  includeMessage: boolean;
  /** Not due before this time (epoch ms): a send waiting for the end of quiet hours. */
  notBefore?: number;
}

export interface PlanInput {
  change: NotificationChangeKind;
  record: NotificationRecord;
  routes: readonly Route[];
  providers: ReadonlyMap<string, ProviderFacts>;
  /** Routes that already have a send of this notification that has not dead-lettered. */
  sentRoutes: ReadonlySet<string>;
}

/**
 * The outbox items one committed change causes (conventions.md, last point): a new notification or
 * lifecycle is sent to every matching route; an in-place update is sent only to a route that had not
 * been sent this lifecycle (it did not match before), and otherwise, like a status change, reaches only
 * providers that can edit or clear what they delivered. Never a second alert for one lifecycle.
 */
export function planDeliveries(input: PlanInput): PlannedItem[] {
  const { change, record } = input;
  const items: PlannedItem[] = [];
  for (const route of input.routes) {
    const provider = input.providers.get(route.providerId);
    if (!route.enabled || !provider?.enabled) continue;
    const sent = input.sentRoutes.has(route.id);
    const make = (operation: PlannedItem['operation']): PlannedItem => ({
      routeId: route.id,
      providerId: route.providerId,
      operation,
      includeMessage: route.includeMessage,
    });
    if (change.kind === 'created' || (change.kind === 'updated' && !sent)) {
      if (record.status === 'active' && routeMatches(route, record)) {
        items.push(make('send'));
      }
      continue;
    }
    if (!sent) continue;
    const sync = syncOperation(change, record.status, provider);
    if (sync) items.push(make(sync));
  }
  return items;
}

function syncOperation(
  change: NotificationChangeKind,
  status: Status,
  provider: ProviderFacts,
): 'update' | 'clear' | undefined {
  if (change.kind === 'status' && status !== 'active') {
    if (provider.lifecycle.clear) return 'clear';
    if (provider.lifecycle.update) return 'update';
    return undefined;
  }
  return provider.lifecycle.update ? 'update' : undefined;
}

/**
 * The event an item reports, from its operation and the notification's status after the change: a send
 * announces, a clear or an update of a finished notification says how it ended (answered when the
 * person's answer resolved it), any other update is one.
 */
export function deliveryEvent(
  operation: PlannedItem['operation'],
  status: Status,
  answered = false,
): DeliveryEvent {
  if (operation === 'send') return 'notification.created';
  if (status === 'resolved') return answered ? 'notification.answered' : 'notification.resolved';
  if (status === 'dismissed') return 'notification.dismissed';
  return 'notification.updated';
}

/**
 * `<notification>.<route>` for the one send of a lifecycle; sync operations add the operation and the
 * notification's updatedAt, so each edit is its own item while an identical re-enqueue is not.
 */
export function idempotencyKey(
  record: Pick<NotificationRecord, 'id' | 'updatedAt'>,
  routeId: string,
  operation: PlannedItem['operation'],
): string {
  const base = `${record.id}.${routeId}`;
  return operation === 'send' ? base : `${base}.${operation}.${record.updatedAt}`;
}

/** What leaves the machine; without IncludeMessage the message stays home. */
export function outboundOf(record: NotificationRecord, includeMessage: boolean): OutboundNotification {
  return {
    id: record.id,
    ...(record.key !== undefined && { key: record.key }),
    title: record.title,
    ...(includeMessage && { message: record.message }),
    type: record.type,
    priority: record.priority,
    status: record.status,
    agent: record.agent,
    ...(record.project !== undefined && { project: record.project }),
    createdAt: formatTimestamp(record.createdAt),
    updatedAt: formatTimestamp(record.updatedAt),
    ...(record.actions !== undefined && { actions: record.actions }),
    ...(record.answer !== undefined && {
      answer: { ...record.answer, answeredAt: formatTimestamp(record.answer.answeredAt) },
    }),
  };
}
