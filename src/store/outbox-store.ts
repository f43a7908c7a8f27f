import { intakeRangeOf, INTAKE_RANGE } from './intake-range.js';
import type { DeliveryEvent, OutboundNotification } from '../delivery/provider.js';
import {
  deliveryEvent,
  idempotencyKey,
  outboundOf,
  type OutboxOperation,
  type PlannedItem,
  type SendStanding,
} from '../domain/delivery/delivery-plan.js';
import type { Priority } from '../domain/priority.js';
import type { Db } from './database.js';
import { notificationRowJson, toRecord, type NotificationRow } from './notification-store.js';
import type { LastResult } from './provider-store.js';

/** The states an item is stored in; `cancelled`: a waiting send whose notification was handled first. */
export type OutboxState = 'pending' | 'in_flight' | 'delivered' | 'dead' | 'cancelled';
/**
 * The states an item shows (API, notifyctl): the stored ones, and `waiting` for a pending send held by
 * its route's delay that has not started (wait_until is set): it is cancelled if the notification is
 * handled before it starts.
 */
export const OUTBOX_STATES = ['waiting', 'pending', 'in_flight', 'delivered', 'dead', 'cancelled'] as const;
export type ShownState = (typeof OUTBOX_STATES)[number];

/** An attempt's outcome, as the dispatcher records it. */
export interface Settlement {
  seq: number;
  state: 'pending' | 'delivered' | 'dead';
  now: number;
  details: {
    nextAttemptAt?: number;
    reference?: string;
    reason?: string;
    status?: number;
    /** The attempt was cut short by the broker's own stop: it is not counted against the item. */
    uncounted?: boolean;
  };
  /** Set when the attempt reached the provider's adapter: becomes the provider's last result. */
  provider?: { id: string; lastResult: LastResult };
}

/** Intake rows moved into the outbox table per statement. */
const INTAKE_CHUNK = 500;
/**
 * Intake rows a claim moves first, unless told fewer: a long intake (a burst of notifications) is moved
 * in steps, so one claim never holds the main thread for long; the claims that follow move the rest,
 * in order.
 */
const INTAKE_PER_CLAIM = 200;

export interface OutboxItem {
  seq: number;
  notificationId: string;
  routeId: string;
  providerId: string;
  operation: OutboxOperation;
  event: DeliveryEvent;
  payload: OutboundNotification;
  idempotencyKey: string;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: number;
  /**
   * Set while a send waits for its route's delay: it starts no earlier, and is cancelled if the
   * notification is handled before it starts. Cleared when its first attempt starts.
   */
  waitUntil?: number;
  reference?: string;
  lastReason?: string;
  lastStatus?: number;
  /** Of a send: the person saw it on a device (the provider said so when asked later, migration 14). */
  seen?: { at: number; device?: string };
  createdAt: number;
  updatedAt: number;
}

/**
 * A planned item in the intake's `items` column, as a tuple: quicker to write than named fields. Its
 * event and idempotency key follow from the notification as it was at the change, so they are not stored.
 * A send held by quiet hours carries their end (epoch ms), one whose route waits also its delay (with
 * null for no quiet hours): an item without either stays as short as before.
 */
type CompactItem =
  | [routeId: string, providerId: string, operation: PlannedItem['operation'], includeMessage: 0 | 1]
  | [
      routeId: string,
      providerId: string,
      operation: PlannedItem['operation'],
      includeMessage: 0 | 1,
      notBefore: number | null,
      delaySeconds?: number,
    ];

/** The layout before the event and idempotency key were derived: IncludeMessage came last. */
type LegacyCompactItem = [string, string, PlannedItem['operation'], string, string, 0 | 1];

/** A send held by quiet hours: what re-timing it needs. */
export interface HeldSend {
  seq: number;
  createdAt: number;
  priority: Priority;
  delaySeconds: number;
}

interface IntakeItem {
  routeId: string;
  providerId: string;
  operation: PlannedItem['operation'];
  includeMessage: 0 | 1;
  notBefore: number | undefined;
  delaySeconds: number;
}

interface IntakeRow {
  /** Its key, as text: keys in a notification's range pass 2⁵³ (intake-range.ts), beyond exact numbers. */
  seq: string;
  notification_id: string;
  items: string;
  created_at: number;
  /** The notification as it was at the change (NotificationRow as JSON); null when it is gone. */
  notification: string | null;
}

interface Row {
  seq: number;
  notification_id: string;
  route_id: string;
  provider_id: string;
  operation: OutboxItem['operation'];
  event: DeliveryEvent;
  payload: string;
  idempotency_key: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  wait_until: number | null;
  reference: string | null;
  last_reason: string | null;
  last_status: number | null;
  follow_state: string | null;
  follow_at: number | null;
  follow_device: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * All SQL of the outbox: enqueue inside the notification's transaction, claim, settle, manage. An
 * enqueue writes the change's items as one intake row; every other method first moves the intake into
 * the outbox table (expandIntake), so all of them see every item. The reads that only show items
 * (list, get, counts) still answer when that move cannot be written.
 */
export class OutboxStore {
  readonly #insert;
  readonly #intake;
  readonly #intakeWaiting;
  readonly #expand;
  readonly #intakeOf;
  readonly #sendsOf;
  readonly #heldSends;
  readonly #retime;
  readonly #refresh;
  readonly #cancel;
  readonly #due;
  readonly #claim;
  readonly #settle;
  readonly #sendReference;
  readonly #nextDue;
  readonly #providersWithWork;
  readonly #settleAll;
  readonly #carryReference;
  readonly #providerReferences;
  readonly #unsettled;
  readonly #recordResult;
  readonly #orphans;
  readonly #claimAll: (
    now: number,
    limit: number,
    capacity: (providerId: string) => number,
    intakeRows: number,
  ) => OutboxItem[];

  constructor(private readonly db: Db) {
    // An item with this idempotency key exists already: the same change was enqueued before, and it
    // stays as it is. Except a send that dead-lettered or was cancelled: the planner sends a lifecycle
    // again only to a route whose send is dead (sendsOf) or, on a reopen, cancelled, so that send is
    // tried again as the notification is now, with a fresh set of attempts (and a fresh wait), keeping
    // its key, so the lifecycle still has one send per route.
    this.#insert = db.prepare(`
      INSERT INTO outbox (notification_id, route_id, provider_id, operation, event, payload, idempotency_key,
        state, next_attempt_at, wait_until, created_at, updated_at)
      VALUES (@notificationId, @routeId, @providerId, @operation, @event, @payload, @idempotencyKey,
        'pending', @dueAt, @waitUntil, @now, @now)
      ON CONFLICT (idempotency_key) DO UPDATE SET state = 'pending', attempts = 0, payload = excluded.payload,
        event = excluded.event, provider_id = excluded.provider_id, next_attempt_at = excluded.next_attempt_at,
        wait_until = excluded.wait_until, created_at = excluded.created_at,
        updated_at = excluded.updated_at, reference = NULL, last_reason = NULL, last_status = NULL
      WHERE outbox.state IN ('dead', 'cancelled') AND outbox.operation = 'send'`);
    // Only a send that has not started can still take new content or be called off: the claim clears
    // wait_until, and waits for the notification's intake rows, so these never miss a send under way.
    this.#refresh = db.prepare(`
      UPDATE outbox SET payload = @payload, updated_at = @now
      WHERE notification_id = @notificationId AND route_id = @routeId AND operation = 'send'
        AND state = 'pending' AND wait_until IS NOT NULL`);
    this.#cancel = db.prepare(`
      UPDATE outbox SET state = 'cancelled', updated_at = @now
      WHERE notification_id = @notificationId AND route_id = @routeId AND operation = 'send'
        AND state = 'pending' AND wait_until IS NOT NULL`);
    // The change's number follows the notification's last row still in the intake, in the notification's
    // range (intake-range.ts): no index to write.
    this.#intake = db.prepare<[{ id: string; items: string; now: number }]>(`
      INSERT INTO outbox_intake (seq, notification_id, items, created_at)
      SELECT coalesce((SELECT max(i.seq) + 1 FROM outbox_intake i WHERE ${intakeRangeOf('n.seq', 'i.seq')}),
          n.seq * ${INTAKE_RANGE}), n.id, @items, @now
      FROM notifications n WHERE n.id = @id`);
    this.#intakeWaiting = db.prepare<[], { seq: number }>('SELECT seq FROM outbox_intake LIMIT 1');
    // The notification row as it was at the change: its copy once it changed again, else the row.
    const readIntake = db.prepare<[number], IntakeRow>(`
      SELECT CAST(i.seq AS TEXT) AS seq, i.notification_id, i.items, i.created_at, coalesce(i.snapshot,
        (SELECT ${notificationRowJson('n')} FROM notifications n WHERE n.id = i.notification_id)) AS notification
      FROM outbox_intake i ORDER BY i.seq LIMIT ?`);
    const clearIntake = db.prepare<[string]>('DELETE FROM outbox_intake WHERE seq <= CAST(? AS INTEGER)');
    // A notification's changes in their order, so a lifecycle's update always follows its send in the
    // outbox too; notifications in the order they were made; in chunks, so a long intake never sits in
    // memory at once.
    this.#expand = db.transaction((maxRows: number) => {
      for (
        let left = maxRows, rows = readIntake.all(Math.min(left, INTAKE_CHUNK));
        rows.length > 0;
        left -= rows.length, rows = left > 0 ? readIntake.all(Math.min(left, INTAKE_CHUNK)) : []
      ) {
        for (const row of rows) {
          if (row.notification === null) {
            // The triggers of migration 4 keep a copy before a notification changes or goes.
            throw new Error(`outbox intake row ${row.seq} has lost its notification`);
          }
          const record = toRecord(JSON.parse(row.notification) as NotificationRow);
          const payloads: (string | undefined)[] = [];
          const payload = (includeMessage: 0 | 1) =>
            (payloads[includeMessage] ??= JSON.stringify(outboundOf(record, includeMessage === 1)));
          for (const item of compactItems(row.items)) {
            const { routeId, providerId, operation, includeMessage, notBefore, delaySeconds } = item;
            const now = row.created_at;
            if (operation === 'cancel') {
              this.#cancel.run({ notificationId: row.notification_id, routeId, now });
              continue;
            }
            if (operation === 'refresh') {
              this.#refresh.run({
                notificationId: row.notification_id,
                routeId,
                payload: payload(includeMessage),
                now,
              });
              continue;
            }
            // Due at the later of the route's delay and the end of quiet hours. Only a delay makes a send
            // wait (wait_until, cancelled if the notification is handled meanwhile); one held by quiet
            // hours alone still goes after a resolve.
            const dueAt = Math.max(now, notBefore ?? now, now + delaySeconds * 1000);
            const waitUntil = delaySeconds > 0 ? dueAt : null;
            this.#insert.run({
              notificationId: row.notification_id,
              routeId,
              providerId,
              operation,
              event: deliveryEvent(operation, record.status, record.answer !== undefined),
              payload: payload(includeMessage),
              idempotencyKey: idempotencyKey(record, routeId, operation),
              dueAt,
              waitUntil,
              now,
            });
          }
        }
        clearIntake.run(rows.at(-1)!.seq);
      }
    });
    this.#intakeOf = db.prepare<[string], { items: string }>(`
      SELECT i.items FROM notifications n JOIN outbox_intake i
        ON ${intakeRangeOf('n.seq', 'i.seq')} AND i.notification_id = n.id
      WHERE n.id = ? ORDER BY i.seq`);
    this.#sendsOf = db.prepare<[string], { route_id: string; state: OutboxState; wait_until: number | null }>(
      `SELECT route_id, state, wait_until FROM outbox WHERE notification_id = ? AND operation = 'send'`,
    );
    this.#heldSends = db.prepare<[number], HeldSend>(`
      SELECT o.seq, o.created_at AS createdAt, n.priority, coalesce(r.delay_seconds, 0) AS delaySeconds
      FROM outbox o INDEXED BY outbox_due
        JOIN notifications n ON n.id = o.notification_id LEFT JOIN routes r ON r.id = o.route_id
      WHERE o.state = 'pending' AND o.next_attempt_at = ? AND o.attempts = 0 AND o.operation = 'send'`);
    this.#retime = db.prepare(`
      UPDATE outbox SET next_attempt_at = @dueAt, updated_at = @now,
        wait_until = CASE WHEN wait_until IS NULL THEN NULL ELSE @dueAt END
      WHERE seq = @seq AND state = 'pending' AND attempts = 0`);
    // Due items whose lifecycle has no earlier unfinished item, so an update never overtakes its send.
    // A waiting send also waits for its notification's intake rows: one of them may cancel or refresh it.
    this.#due = db.prepare<[string, number, number], Row>(`
      SELECT o.* FROM outbox o INDEXED BY outbox_provider_due
      WHERE o.state = 'pending' AND o.provider_id = ? AND o.next_attempt_at <= ?
        AND NOT EXISTS (
          SELECT 1 FROM outbox e WHERE e.notification_id = o.notification_id AND e.route_id = o.route_id
            AND e.seq < o.seq AND e.state IN ('pending', 'in_flight'))
        AND (o.wait_until IS NULL OR NOT EXISTS (
          SELECT 1 FROM notifications n JOIN outbox_intake i
            ON ${intakeRangeOf('n.seq', 'i.seq')} AND i.notification_id = n.id
          WHERE n.id = o.notification_id))
      ORDER BY o.next_attempt_at, o.seq LIMIT ?`);
    this.#providersWithWork = db.prepare<[], { id: string }>(`
      SELECT p.id FROM providers p WHERE EXISTS (
        SELECT 1 FROM outbox o INDEXED BY outbox_provider_due WHERE o.state = 'pending' AND o.provider_id = p.id)`);
    this.#orphans = db.prepare(`
      UPDATE outbox SET state = 'dead', last_reason = 'provider_deleted', updated_at = ?
      WHERE state = 'pending' AND provider_id NOT IN (SELECT id FROM providers)`);
    this.#claim = db.prepare(`
      UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, wait_until = NULL, updated_at = ?
      WHERE seq = ? AND state = 'pending'`);
    this.#settle = db.prepare(`
      UPDATE outbox SET state = @state, next_attempt_at = @nextAttemptAt, reference = coalesce(@reference, reference),
        last_reason = @reason, last_status = @status, attempts = attempts - @uncounted, updated_at = @now
      WHERE seq = @seq`);
    this.#sendReference = db.prepare<[string, string], { reference: string | null; state: OutboxState }>(`
      SELECT reference, state FROM outbox WHERE notification_id = ? AND route_id = ? AND operation = 'send'`);
    // One transaction: the rows read are the rows claimed, whatever another writer does meanwhile.
    this.#claimAll = db.transaction(
      (
        now: number,
        limit: number,
        capacity: (providerId: string) => number,
        intakeRows: number,
      ): OutboxItem[] => {
        this.expandIntake(intakeRows);
        const claimed: OutboxItem[] = [];
        for (const { id } of this.#providersWithWork.all()) {
          const room = Math.min(capacity(id), limit - claimed.length);
          if (room <= 0) continue;
          for (const row of this.#due.all(id, now, room)) {
            this.#claim.run(now, row.seq);
            claimed.push(
              toItem({ ...row, state: 'in_flight', attempts: row.attempts + 1, wait_until: null }),
            );
          }
        }
        return claimed;
      },
    );
    this.#recordResult = db.prepare('UPDATE providers SET last_result = ? WHERE id = ?');
    // An update or clear that returns a reference has the provider's latest word on what it shows (the
    // relay's lifecycle after a reopen): kept on the lifecycle's send, which outlives the purge.
    this.#carryReference = db.prepare(`
      UPDATE outbox SET reference = @reference
      WHERE operation = 'send' AND state = 'delivered' AND (notification_id, route_id) =
        (SELECT notification_id, route_id FROM outbox WHERE seq = @seq AND operation <> 'send')`);
    this.#providerReferences = db.prepare<[string, string], { reference: string }>(`
      SELECT reference FROM outbox INDEXED BY outbox_lifecycle
      WHERE notification_id = ? AND provider_id = ? AND operation = 'send' AND state = 'delivered'
        AND reference IS NOT NULL`);
    this.#unsettled = db.prepare<[string, string], { one: number }>(`
      SELECT 1 AS one FROM outbox INDEXED BY outbox_lifecycle
      WHERE notification_id = ? AND provider_id = ? AND state IN ('pending', 'in_flight') LIMIT 1`);
    this.#settleAll = db.transaction((settlements: readonly Settlement[]) => {
      // A provider's last result is its latest one: one write per provider, not per item.
      const lastResults = new Map<string, LastResult>();
      for (const { seq, state, now, details, provider } of settlements) {
        this.#settle.run({
          seq,
          state,
          now,
          nextAttemptAt: details.nextAttemptAt ?? now,
          reference: details.reference ?? null,
          reason: details.reason ?? null,
          status: details.status ?? null,
          uncounted: details.uncounted ? 1 : 0,
        });
        if (state === 'delivered' && details.reference !== undefined)
          this.#carryReference.run({ seq, reference: details.reference });
        if (provider) lastResults.set(provider.id, provider.lastResult);
      }
      for (const [id, result] of lastResults) this.#recordResult.run(JSON.stringify(result), id);
    });
    // The due index from `after` on, to the first item that no earlier item of its lifecycle holds back:
    // min() over `state = 'pending'` would read every pending item.
    this.#nextDue = db.prepare<[number], { at: number }>(`
      SELECT o.next_attempt_at AS at FROM outbox o INDEXED BY outbox_due
      WHERE o.state = 'pending' AND o.next_attempt_at > ?
        AND NOT EXISTS (
          SELECT 1 FROM outbox e WHERE e.notification_id = o.notification_id AND e.route_id = o.route_id
            AND e.seq < o.seq AND e.state IN ('pending', 'in_flight'))
      ORDER BY o.next_attempt_at LIMIT 1`);
  }

  /**
   * Call inside the notification's transaction, after its write: one small row, however many items.
   * The payloads are built from the notification when the row is moved into the outbox.
   */
  enqueue(notificationId: string, items: readonly PlannedItem[], now: number): void {
    const compact = items.map(
      ({ routeId, providerId, operation, includeMessage, notBefore, delaySeconds }): CompactItem => {
        const base: CompactItem = [routeId, providerId, operation, includeMessage ? 1 : 0];
        if (delaySeconds) return [...base, notBefore ?? null, delaySeconds];
        return notBefore === undefined ? base : [...base, notBefore];
      },
    );
    const written = this.#intake.run({ id: notificationId, items: JSON.stringify(compact), now });
    if (written.changes !== 1) throw new Error(`no notification ${notificationId} to enqueue the items of`);
  }

  /** Whether changes wait in the intake: the dispatcher runs again at once while they do. */
  hasIntake(): boolean {
    return this.#intakeWaiting.get() !== undefined;
  }

  /**
   * Moves the intake (its first `maxRows` rows) into the outbox table, in one transaction (a savepoint
   * inside another). Idempotent per item: an item whose idempotency key exists already was enqueued
   * before and is skipped, unless it is a dead send, which is tried again (see the insert).
   */
  expandIntake(maxRows = Number.POSITIVE_INFINITY): void {
    if (this.#intakeWaiting.get()) this.#expand(maxRows);
  }

  /**
   * Before a read that only shows items: moves the intake if it can. When it cannot (a full disk,
   * another program holding the write lock), the read still answers, from the items moved so far, as
   * every other read does then; the dispatcher moves the rest once writes work again.
   */
  private expandBeforeRead(): void {
    try {
      this.expandIntake();
    } catch {
      // Answered from the outbox table as it is.
    }
  }

  /**
   * Sends not yet tried that are due exactly at `at` (the end of quiet hours that held them), with the
   * priority of their notification and their route's delay; the intake is moved first.
   */
  heldSends(at: number): HeldSend[] {
    this.expandIntake();
    return this.#heldSends.all(at);
  }

  /** Moves a send not yet tried to `dueAt`; a send that waits (cancellable) keeps waiting until then. */
  retime(seq: number, dueAt: number, now: number): void {
    this.#retime.run({ seq, dueAt, now });
  }

  /**
   * The routes this notification was sent to (or is about to be, or whose send waits or was cancelled):
   * from the outbox table and then from its own intake rows, in order, without moving the whole intake
   * inside the change's transaction (after a burst that could hold a PATCH for seconds). A dead send
   * counts as none.
   */
  sendsOf(notificationId: string): Map<string, SendStanding> {
    const sends = new Map<string, SendStanding>();
    for (const row of this.#sendsOf.all(notificationId)) {
      if (row.state === 'dead') continue;
      sends.set(
        row.route_id,
        row.state === 'cancelled'
          ? 'cancelled'
          : row.state === 'pending' && row.wait_until !== null
            ? 'waiting'
            : 'sent',
      );
    }
    for (const row of this.#intakeOf.all(notificationId))
      for (const item of compactItems(row.items)) {
        if (item.operation === 'send') sends.set(item.routeId, item.delaySeconds > 0 ? 'waiting' : 'sent');
        else if (item.operation === 'cancel') sends.set(item.routeId, 'cancelled');
      }
    return sends;
  }

  /**
   * Marks up to `limit` due items in flight and returns them, at most `capacity(provider)` per provider
   * (zero for one held by a Retry-After or at its concurrency limit), after moving up to `intakeRows`
   * rows of the intake into the outbox.
   */
  claim(
    now: number,
    limit: number,
    capacity: (providerId: string) => number,
    intakeRows = INTAKE_PER_CLAIM,
  ): OutboxItem[] {
    return this.#claimAll(now, limit, capacity, intakeRows);
  }

  /** Records attempts' outcomes on their items and as their providers' last results, in one transaction. */
  settleAll(settlements: readonly Settlement[]): void {
    this.#settleAll(settlements);
  }

  /**
   * The references of a notification's delivered sends through one provider (one per route to it),
   * each the provider's latest word on it: the relay's lifecycle an answer must name.
   */
  deliveredReferences(notificationId: string, providerId: string): string[] {
    return this.#providerReferences.all(notificationId, providerId).map((row) => row.reference);
  }

  /**
   * Whether a delivery of the notification through the provider is still under way (pending or in
   * flight), a change still in the intake included.
   */
  hasUnsettled(notificationId: string, providerId: string): boolean {
    this.expandIntake();
    return this.#unsettled.get(notificationId, providerId) !== undefined;
  }

  /** What the lifecycle's send delivered: the reference an update or clear needs. */
  sendOf(notificationId: string, routeId: string): { reference?: string; state: OutboxState } | undefined {
    this.expandIntake();
    const row = this.#sendReference.get(notificationId, routeId);
    return row && { state: row.state, ...(row.reference !== null && { reference: row.reference }) };
  }

  /**
   * Items a crashed run left in flight go back to pending, due now; their attempt counts stay. Items
   * whose provider is gone dead-letter with `provider_deleted`.
   */
  recoverInFlight(now: number): number {
    this.expandIntake();
    this.#orphans.run(now);
    return this.db
      .prepare(
        `UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'in_flight'`,
      )
      .run(now, now).changes;
  }

  /**
   * The earliest time after `after` at which an item of the outbox table can start: an item queued
   * behind an unfinished one of its lifecycle (an update or clear behind a send's retry) starts only
   * once that one is done, so its own, often past, due time is no wake-up. What was due by `after` and
   * is still pending waits for an attempt to finish or a provider's hold to end, which wake the
   * dispatcher themselves; the intake is due at once (hasIntake).
   */
  nextDueAt(after: number): number | undefined {
    return this.#nextDue.get(after)?.at;
  }

  /**
   * Items newest first, all or those showing one state; with `notificationId`, that notification's
   * items only (the lifecycle index).
   */
  list(state: ShownState | undefined, limit: number, notificationId?: string): OutboxItem[] {
    this.expandBeforeRead();
    if (notificationId !== undefined) {
      const stored = state === 'waiting' ? 'pending' : (state ?? null);
      const waits = state === 'waiting' ? 1 : state === 'pending' ? 0 : null;
      return this.db
        .prepare<[string, string | null, string | null, number | null, number | null, number], Row>(
          `SELECT * FROM outbox WHERE notification_id = ? AND (? IS NULL OR state = ?)
             AND (? IS NULL OR (wait_until IS NOT NULL) = ?) ORDER BY seq DESC LIMIT ?`,
        )
        .all(notificationId, stored, stored, waits, waits, limit)
        .map(toItem);
    }
    // Each through an index: the outbox can hold hundreds of thousands of delivered items.
    const rows =
      state === undefined
        ? this.db.prepare<[number], Row>('SELECT * FROM outbox ORDER BY seq DESC LIMIT ?').all(limit)
        : state === 'waiting'
          ? this.db
              .prepare<[number], Row>(
                `SELECT * FROM outbox INDEXED BY outbox_waiting WHERE state = 'pending' AND wait_until IS NOT NULL
                 ORDER BY seq DESC LIMIT ?`,
              )
              .all(limit)
          : this.db
              .prepare<[string, number], Row>(
                `SELECT * FROM outbox INDEXED BY outbox_state WHERE state = ?
                   AND (state <> 'pending' OR wait_until IS NULL) ORDER BY seq DESC LIMIT ?`,
              )
              .all(state, limit);
    return rows.map(toItem);
  }

  get(seq: number): OutboxItem | undefined {
    this.expandBeforeRead();
    const row = this.db.prepare<[number], Row>('SELECT * FROM outbox WHERE seq = ?').get(seq);
    return row && toItem(row);
  }

  /** How many items show each state. */
  counts(): Record<ShownState, number> {
    this.expandBeforeRead();
    const counts = { waiting: 0, pending: 0, in_flight: 0, delivered: 0, dead: 0, cancelled: 0 };
    // From the state index and the small index of waiting sends, never from the table's rows.
    const rows = this.db
      .prepare<[], { state: OutboxState; n: number }>(
        'SELECT state, count(*) AS n FROM outbox INDEXED BY outbox_state GROUP BY state',
      )
      .all();
    for (const row of rows) counts[row.state] = row.n;
    counts.waiting = this.db
      .prepare<[], { n: number }>(
        `SELECT count(*) AS n FROM outbox INDEXED BY outbox_waiting WHERE state = 'pending' AND wait_until IS NOT NULL`,
      )
      .get()!.n;
    counts.pending -= counts.waiting;
    return counts;
  }

  /** A dead item gets a fresh set of attempts, due now; false when it is not dead. */
  retryDead(seq: number, now: number): boolean {
    this.expandIntake();
    return (
      this.db
        .prepare(
          `UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ?
           WHERE seq = ? AND state = 'dead'`,
        )
        .run(now, now, seq).changes > 0
    );
  }

  /**
   * Deletes delivered items, except the sends of notifications that still exist: their reference is
   * what a later update or clear needs, and their presence is what stops a second alert.
   */
  purgeDelivered(): number {
    this.expandIntake();
    return this.db
      .prepare(
        `DELETE FROM outbox WHERE state = 'delivered' AND NOT (operation = 'send'
           AND notification_id IN (SELECT id FROM notifications))`,
      )
      .run().changes;
  }
}

/**
 * An intake row's items. Rows written before the event and idempotency key were derived carried them
 * between the operation and IncludeMessage (six places, a string fourth); such a row still reads right,
 * because both follow from the notification anyway. After IncludeMessage, a send may carry the end of
 * the quiet hours that hold it (or null) and then its route's delay.
 */
function compactItems(text: string): IntakeItem[] {
  return (JSON.parse(text) as (CompactItem | LegacyCompactItem)[]).map((item) => {
    const legacy = typeof item[3] === 'string';
    return {
      routeId: item[0],
      providerId: item[1],
      operation: item[2],
      includeMessage: item[legacy ? item.length - 1 : 3] as 0 | 1,
      notBefore: legacy ? undefined : ((item[4] as number | null | undefined) ?? undefined),
      delaySeconds: legacy ? 0 : ((item[5] as number | undefined) ?? 0),
    };
  });
}

function toItem(row: Row): OutboxItem {
  return {
    seq: row.seq,
    notificationId: row.notification_id,
    routeId: row.route_id,
    providerId: row.provider_id,
    operation: row.operation,
    event: row.event,
    payload: JSON.parse(row.payload) as OutboundNotification,
    idempotencyKey: row.idempotency_key,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    ...(row.wait_until !== null && { waitUntil: row.wait_until }),
    ...(row.reference !== null && { reference: row.reference }),
    ...(row.last_reason !== null && { lastReason: row.last_reason }),
    ...(row.last_status !== null && { lastStatus: row.last_status }),
    ...(row.follow_state === 'seen' &&
      row.follow_at !== null && {
        seen: { at: row.follow_at, ...(row.follow_device !== null && { device: row.follow_device }) },
      }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
