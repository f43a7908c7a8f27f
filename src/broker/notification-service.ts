import { AgentTokenRefusedError } from '../domain/agent-token.js';
import { answerRefusal, parseAnswerRequest, type Surface } from '../domain/answers.js';
import { parseCreateRequest } from '../domain/create-request.js';
import { ConflictError, InvalidRequestError, NotFoundError, StaleAnswerError } from '../domain/errors.js';
import { needsPerson } from '../domain/attention.js';
import { encodeCursor, parseListQuery } from '../domain/list-query.js';
import { firstReminderAt, reminderPolicy } from '../domain/reminders.js';
import { parseSnoozeRequest } from '../domain/snooze.js';
import type { NotificationDraft, NotificationRecord, Status } from '../domain/notification.js';
import { checkTransition, parseStatusChange } from '../domain/status-transition.js';
import { effectivePriority, type TypeCatalog } from '../domain/type-definition.js';
import {
  ActiveKeyTakenError,
  type NotificationStore,
  type UpsertOptions,
  type UpsertResult,
} from '../store/notification-store.js';
import type { WriteQueue } from '../store/write-queue.js';
import type { Logger } from '../log/logger.js';
import type { AlertFeed } from './alert-feed.js';
import type { ChangeFeed, NotificationChange } from './change-feed.js';
import type { Clock } from './clock.js';

export interface Waiting {
  waiting: number;
  byType: Record<string, number>;
}

export interface NotificationServiceDeps {
  store: NotificationStore;
  /** Every write runs through it: answered only once committed, together with the writes around it. */
  writes: WriteQueue;
  clock: Clock;
  newId: () => string;
  types: () => TypeCatalog;
  /** Told of every committed change, after the commit. */
  changes?: ChangeFeed;
  /** Written with the change, inside its transaction (the outbox): either both commit or neither. */
  withinWrite?: (change: NotificationChange) => void;
  /** Gets one audit line per answer: id, action and surface, never the notification's text. */
  log?: Pick<Logger, 'info'>;
  /** Told of each snooze, after its commit: the toast closes and the notification keeps quiet. */
  alerts?: AlertFeed;
}

/** Notification use cases: create with dedup by key, read, list, status changes, and the writes ARC events make. */
export class NotificationService {
  constructor(private readonly deps: NotificationServiceDeps) {}

  /** `raisedBy`: the agent token's name the request came with (absent for the owner token). */
  async create(body: unknown, raisedBy?: string): Promise<UpsertResult> {
    const request = parseCreateRequest(body);
    const draft: NotificationDraft = {
      ...request,
      priority: effectivePriority(request.priority, request.type, this.deps.types()),
      ...(raisedBy !== undefined && { raisedBy }),
    };
    return this.store(draft);
  }

  /**
   * Persists a validated draft: a new notification, or the in-place refresh of its key's active one.
   * With an ARC event identity seen before, the original notification comes back unchanged; with
   * activeOnly (ARC request.updated), 404 when the key has no active notification, nothing created.
   */
  async store(draft: NotificationDraft, options: UpsertOptions = {}): Promise<UpsertResult> {
    const now = this.deps.clock();
    const id = this.deps.newId();
    const { result, change } = await this.deps.writes.run(() => {
      // What an in-place refresh replaces: listeners compare (an update sounds only when it asks for more).
      const previous = draft.key === undefined ? undefined : this.deps.store.activeByKey(draft.key);
      const remindAt = firstReminderAt(reminderPolicy(draft.type, this.deps.types()), now);
      const upserted = this.deps.store.upsert(id, draft, now, { ...options, remindAt });
      if (!upserted) throw new NotFoundError();
      // An agent token refreshes (by key) or replays (by ARC event id) only what it raised itself;
      // throwing undoes the refresh with the rest of the write.
      if (draft.raisedBy !== undefined && !upserted.created && upserted.record.raisedBy !== draft.raisedBy)
        throw new AgentTokenRefusedError();
      // A replayed ARC event returns its original row untouched: only a write that changed it is news.
      const change: NotificationChange | undefined = upserted.created
        ? { kind: 'created', record: upserted.record }
        : upserted.record.updatedAt === now && previous?.id === upserted.record.id
          ? { kind: 'updated', record: upserted.record, previous }
          : undefined;
      if (change) this.deps.withinWrite?.(change);
      return { result: upserted, change };
    });
    if (change) this.deps.changes?.publish(change);
    return result;
  }

  /** ARC request.updated: replaces the visible state of the key's active notification; never creates. */
  async replaceActive(draft: NotificationDraft): Promise<NotificationRecord> {
    return (await this.store(draft, { activeOnly: true })).record;
  }

  /**
   * Resolves the active notification with this key. When none is active, the latest one with the key
   * is returned unchanged (resolving again is idempotent); 404 when the key was never used.
   */
  resolveCondition(key: string, raisedBy?: string): Promise<NotificationRecord> {
    const find = () => {
      const record = this.deps.store.conditionByKey(key);
      if (record && raisedBy !== undefined && record.raisedBy !== raisedBy)
        throw new AgentTokenRefusedError();
      return record;
    };
    return this.transition(find, 'resolved', { onlyFromActive: true });
  }

  get(id: string): NotificationRecord {
    const record = this.deps.store.get(id);
    if (!record) throw new NotFoundError();
    return record;
  }

  /** The notification, or undefined when there is none with this id. */
  find(id: string): NotificationRecord | undefined {
    return this.deps.store.get(id);
  }

  list(query: Record<string, string | string[] | undefined>): NotificationRecord[] {
    return this.deps.store.list(parseListQuery(query));
  }

  /**
   * As list; with cursor paging asked for, also the cursor of the next page when there is one. With
   * `raisedBy` (an agent token's name) only the notifications raised with that token.
   */
  listPage(
    query: Record<string, string | string[] | undefined>,
    raisedBy?: string,
  ): {
    records: NotificationRecord[];
    nextCursor?: string;
  } {
    const filter = parseListQuery(query);
    if (raisedBy !== undefined) filter.raisedBy = raisedBy;
    const { records, nextBefore } = this.deps.store.page(filter);
    return nextBefore === undefined ? { records } : { records, nextCursor: encodeCursor(nextBefore) };
  }

  async changeStatus(id: string, body: unknown): Promise<NotificationRecord> {
    const target = parseStatusChange(body);
    return this.transition(() => this.deps.store.get(id), target);
  }

  /**
   * Resolves the notification only if it is active and unchanged since `updatedAt`: an update that
   * came in meanwhile keeps it. Undefined when it is gone.
   */
  async resolveUnchanged(id: string, updatedAt: number): Promise<NotificationRecord | undefined> {
    try {
      return await this.transition(() => this.deps.store.get(id), 'resolved', {
        onlyFromActive: true,
        unchangedSince: updatedAt,
      });
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  dismiss(id: string): Promise<NotificationRecord> {
    return this.transition(() => this.deps.store.get(id), 'dismissed');
  }

  /** POST /v1/notifications/{id}/answer: the person's answer through the API (cli, web or relay). */
  async answer(id: string, body: unknown): Promise<NotificationRecord> {
    const request = parseAnswerRequest(body);
    return this.answerAs(id, request.action, request.surface, request.revision);
  }

  /**
   * Records the person's answer and resolves the notification in one transaction: the first answer
   * wins; answering again, answering a resolved or dismissed notification, or answering a revision the
   * notification has left behind (`revision`: the one the person saw), is a conflict.
   */
  async answerAs(
    id: string,
    action: string,
    surface: Surface,
    revision: number | undefined,
  ): Promise<NotificationRecord> {
    const now = this.deps.clock();
    const outcome = await this.deps.writes.run(() => {
      const current = this.deps.store.get(id);
      if (!current) throw new NotFoundError();
      const refusal = answerRefusal(current, action, revision);
      if (refusal)
        throw refusal.stale
          ? new StaleAnswerError(refusal.message)
          : refusal.conflict
            ? new ConflictError(refusal.message)
            : new InvalidRequestError(refusal.message);
      const updated = this.deps.store.answer(id, { action, surface, answeredAt: now });
      if (!updated) throw new ConflictError('notification was answered or closed at the same moment');
      const change: NotificationChange = { kind: 'status', record: updated, previous: current.status };
      this.deps.withinWrite?.(change);
      return { record: updated, change };
    });
    this.deps.log?.info(`answer: notification ${id} action ${action} surface ${surface}`);
    this.deps.changes?.publish(outcome.change);
    return outcome.record;
  }

  /** POST /v1/notifications/{id}/snooze. */
  snooze(id: string, body: unknown): Promise<NotificationRecord> {
    return this.snoozeFor(id, parseSnoozeRequest(body).minutes);
  }

  /**
   * Silences an active notification for `minutes` (its toast closes, no sound, no reminder), after
   * which it alerts again if still active. 409 for one that is resolved or dismissed.
   */
  async snoozeFor(id: string, minutes: number): Promise<NotificationRecord> {
    const now = this.deps.clock();
    const record = await this.deps.writes.run(() => {
      const current = this.deps.store.get(id);
      if (!current) throw new NotFoundError();
      if (current.status !== 'active')
        throw new ConflictError(
          `notification is ${current.status}; only an active notification can be snoozed`,
        );
      return this.deps.store.snooze(id, now + minutes * 60_000)!;
    });
    this.deps.log?.info(`snooze: notification ${id} for ${minutes} min`);
    this.deps.alerts?.publish({ kind: 'snoozed', record });
    return record;
  }

  countActive(): number {
    return this.deps.store.countActive();
  }

  /**
   * The active notifications that wait for a person (their type needs one, issue 20), by type, most
   * frequent first: what the tray and `notifyctl count` count.
   */
  waiting(): Waiting {
    const types = this.deps.types();
    const byType = this.deps.store
      .activeCountByType()
      .filter(({ type }) => needsPerson(type, types))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
    return {
      waiting: byType.reduce((sum, { count }) => sum + count, 0),
      byType: Object.fromEntries(byType.map(({ type, count }) => [type, count])),
    };
  }

  /**
   * Reads the notification and changes its status in one transaction, so nothing can change it in
   * between; an illegal or no-op transition (or, with onlyFromActive, any from a terminal status)
   * returns it unchanged.
   */
  private async transition(
    find: () => NotificationRecord | undefined,
    target: Status,
    { onlyFromActive = false, unchangedSince }: { onlyFromActive?: boolean; unchangedSince?: number } = {},
  ): Promise<NotificationRecord> {
    const now = this.deps.clock();
    const outcome = await this.deps.writes.run(() => {
      const current = find();
      if (!current) throw new NotFoundError();
      if (onlyFromActive && current.status !== 'active') return { record: current };
      if (unchangedSince !== undefined && current.updatedAt !== unchangedSince) return { record: current };
      if (!checkTransition(current.status, target)) return { record: current };
      try {
        const remindAt = firstReminderAt(reminderPolicy(current.type, this.deps.types()), now);
        const updated = this.deps.store.setStatus(current.id, target, now, remindAt);
        if (!updated) throw new NotFoundError();
        const change: NotificationChange = { kind: 'status', record: updated, previous: current.status };
        this.deps.withinWrite?.(change);
        return { record: updated, change };
      } catch (error) {
        if (error instanceof ActiveKeyTakenError) {
          throw new InvalidRequestError(
            `cannot reopen: another active notification already has key "${current.key}"; dismiss or resolve it first`,
          );
        }
        throw error;
      }
    });
    if (outcome.change) this.deps.changes?.publish(outcome.change);
    return outcome.record;
  }
}
