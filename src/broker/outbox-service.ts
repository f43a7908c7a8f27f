import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { formatTimestamp } from '../domain/notification.js';
import { OUTBOX_STATES, type OutboxItem, type OutboxStore, type ShownState } from '../store/outbox-store.js';
import type { Clock } from './clock.js';

export interface OutboxItemView {
  id: number;
  notificationId: string;
  routeId: string;
  providerId: string;
  operation: OutboxItem['operation'];
  event: string;
  idempotencyKey: string;
  state: ShownState;
  attempts: number;
  nextAttemptAt: string | null;
  /**
   * While a send waits for its route's delay: it starts no earlier, and is cancelled if the
   * notification is resolved, dismissed or answered before it starts.
   */
  waitingUntil: string | null;
  lastReason: string | null;
  lastStatus: number | null;
  /** Of a send: when the person acknowledged it on the phone (Pushover's receipt), and on which device. */
  seen: { at: string; device: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

/** Outbox management: list by state, counts, retry a dead item, purge delivered ones. */
export class OutboxService {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly clock: Clock,
    /** Told when a dead item is back in line. */
    private readonly wake: () => void,
  ) {}

  list(query: { state?: string; limit?: string; notificationId?: string }): OutboxItemView[] {
    const state = query.state;
    if (state !== undefined && !(OUTBOX_STATES as readonly string[]).includes(state)) {
      throw new InvalidRequestError(`state must be one of ${OUTBOX_STATES.join(', ')}`);
    }
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(limit)) throw new InvalidRequestError('limit must be an integer from 1 to 500');
    // A repeated parameter takes its last value, as the notification list's do.
    const given = query.notificationId as string | string[] | undefined;
    const notificationId = (Array.isArray(given) ? given.at(-1) : given)?.trim();
    if (notificationId === '') throw new InvalidRequestError('notificationId must not be empty');
    return this.outbox
      .list(state as ShownState | undefined, Math.min(500, Math.max(1, limit)), notificationId)
      .map(view);
  }

  counts(): Record<ShownState, number> {
    return this.outbox.counts();
  }

  retry(id: string): OutboxItemView {
    const seq = Number(id);
    const item = Number.isSafeInteger(seq) ? this.outbox.get(seq) : undefined;
    if (!item) throw new NotFoundError('outbox item not found');
    if (!this.outbox.retryDead(seq, this.clock())) {
      throw new InvalidRequestError(`only a dead item can be retried; this one is ${item.state}`);
    }
    this.wake();
    return view(this.outbox.get(seq)!);
  }

  purgeDelivered(): { purged: number } {
    return { purged: this.outbox.purgeDelivered() };
  }
}

function view(item: OutboxItem): OutboxItemView {
  return {
    id: item.seq,
    notificationId: item.notificationId,
    routeId: item.routeId,
    providerId: item.providerId,
    operation: item.operation,
    event: item.event,
    idempotencyKey: item.idempotencyKey,
    state: item.state === 'pending' && item.waitUntil !== undefined ? 'waiting' : item.state,
    attempts: item.attempts,
    nextAttemptAt: item.state === 'pending' ? formatTimestamp(item.nextAttemptAt) : null,
    waitingUntil:
      item.state === 'pending' && item.waitUntil !== undefined ? formatTimestamp(item.waitUntil) : null,
    lastReason: item.lastReason ?? null,
    lastStatus: item.lastStatus ?? null,
    seen:
      item.seen === undefined
        ? null
        : { at: formatTimestamp(item.seen.at), device: item.seen.device ?? null },
    createdAt: formatTimestamp(item.createdAt),
    updatedAt: formatTimestamp(item.updatedAt),
  };
}
