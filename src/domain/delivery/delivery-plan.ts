import type { DeliveryEvent, OutboundNotification } from '../../delivery/provider.js';
import type { NotificationRecord, Status } from '../notification.js';
import { formatTimestamp } from '../notification.js';
import { routeMatches, type Route } from './route.js';

/** What the planner needs to know of a route's provider. */
export interface ProviderFacts {
  enabled: boolean;
  lifecycle: { update: boolean; clear: boolean };
}

/** What an outbox item does at its provider. */
export type OutboxOperation = 'send' | 'update' | 'clear';

export type NotificationChangeKind =
  { kind: 'created' } | { kind: 'updated' } | { kind: 'status'; previous: Status };

/**
 * One outbox item a change causes, or what it does to a waiting send. Its event (deliveryEvent) and
 * idempotency key (idempotencyKey) follow from the operation and the notification, so the outbox derives
 * them when it takes the item. `refresh` gives a send still waiting for its route's delay the
 * notification as it is now (it goes once, with the newest content); `cancel` calls it off unsent,
 * because the notification was handled first.
 */
export interface PlannedItem {
  routeId: string;
  providerId: string;
  operation: 'send' | 'update' | 'clear' | 'refresh' | 'cancel';
  /** The route's IncludeMessage: its payload (outboundOf) is built when the item leaves the intake. */
  includeMessage: boolean;
  /** A send's wait before it may start (the route's delaySeconds); absent or 0: at once. */
  delaySeconds?: number;
  /** Not due before this time (epoch ms): a send waiting for the end of quiet hours. */
  notBefore?: number;
}

/**
 * Where the lifecycle's send to a route stands: on its way or delivered (`sent`), still waiting for the
 * route's delay (`waiting`), or called off because the notification was handled first (`cancelled`).
 * A route without a send, or whose send dead-lettered, has none.
 */
export type SendStanding = 'sent' | 'waiting' | 'cancelled';

export interface PlanInput {
  change: NotificationChangeKind;
  record: NotificationRecord;
  routes: readonly Route[];
  providers: ReadonlyMap<string, ProviderFacts>;
  /**
   * The routes that have a send of this notification that has not dead-lettered, and its standing;
   * also those no longer among `routes`.
   */
  sends: ReadonlyMap<string, SendStanding>;
}

/**
 * The outbox items one committed change causes (conventions.md, last point): a new notification or
 * lifecycle is sent to every matching route; an in-place update is sent only to a route that had not
 * been sent this lifecycle (it did not match before), and otherwise, like a status change, reaches only
 * providers that can edit or clear what they delivered. Never a second alert for one lifecycle.
 *
 * A route with a delay (issue 20, "Routes that wait") sends only after it: while its send waits, an
 * update refreshes that send instead of following it, and resolving, dismissing or answering cancels
 * it, so nothing leaves the machine for a request handled at the desk. A reopen arms a cancelled send
 * again, with a new wait.
 */
export function planDeliveries(input: PlanInput): PlannedItem[] {
  const { change, record } = input;
  const items: PlannedItem[] = [];
  for (const route of input.routes) {
    const provider = input.providers.get(route.providerId);
    if (!route.enabled || !provider?.enabled) continue;
    const standing = input.sends.get(route.id);
    const make = (operation: PlannedItem['operation']): PlannedItem => ({
      routeId: route.id,
      providerId: route.providerId,
      operation,
      includeMessage: route.includeMessage,
      ...(operation === 'send' && route.delaySeconds > 0 && { delaySeconds: route.delaySeconds }),
    });
    const reopened = change.kind === 'status' && record.status === 'active';
    if (
      change.kind === 'created' ||
      (change.kind === 'updated' && standing !== 'sent' && standing !== 'waiting') ||
      (reopened && standing === 'cancelled')
    ) {
      if (record.status === 'active' && routeMatches(route, record)) {
        items.push(make('send'));
      }
      continue;
    }
    if (standing === 'waiting') {
      items.push(make(record.status === 'active' ? 'refresh' : 'cancel'));
      continue;
    }
    if (standing !== 'sent') continue;
    const sync = syncOperation(change, record.status, provider);
    if (sync) items.push(make(sync));
  }
  // A send waits whatever became of its route meanwhile (disabled, deleted, its provider disabled):
  // handling the request still calls it off. Only the route names the send to cancel.
  if (record.status !== 'active') {
    const planned = new Set(items.map((item) => item.routeId));
    for (const [routeId, standing] of input.sends)
      if (standing === 'waiting' && !planned.has(routeId))
        items.push({ routeId, providerId: '', operation: 'cancel', includeMessage: false });
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
export function deliveryEvent(operation: OutboxOperation, status: Status, answered = false): DeliveryEvent {
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
  operation: OutboxOperation,
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
    revision: record.revision,
    agent: record.agent,
    ...(record.raisedBy !== undefined && { raisedBy: record.raisedBy }),
    ...(record.project !== undefined && { project: record.project }),
    createdAt: formatTimestamp(record.createdAt),
    updatedAt: formatTimestamp(record.updatedAt),
    ...(record.actions !== undefined && { actions: record.actions }),
    ...(record.answer !== undefined && {
      answer: { ...record.answer, answeredAt: formatTimestamp(record.answer.answeredAt) },
    }),
  };
}
