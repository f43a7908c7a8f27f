import { parseCreateRequest } from '../domain/create-request.js';
import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { parseListQuery } from '../domain/list-query.js';
import type { NotificationDraft, NotificationRecord, Status } from '../domain/notification.js';
import { checkTransition, parseStatusChange } from '../domain/status-transition.js';
import { effectivePriority, type TypeCatalog } from '../domain/type-definition.js';
import {
  ActiveKeyTakenError,
  type NotificationStore,
  type UpsertOptions,
  type UpsertResult,
} from '../store/notification-store.js';
import type { ChangeFeed, NotificationChange } from './change-feed.js';
import type { Clock } from './clock.js';

export interface NotificationServiceDeps {
  store: NotificationStore;
  clock: Clock;
  newId: () => string;
  types: () => TypeCatalog;
  /** Told of every committed change, after the commit. */
  changes?: ChangeFeed;
  /**
   * Written with the change, inside its transaction (the outbox): either both commit or neither.
   * `transaction` runs a function atomically; without it each write is its own statement.
   */
  withinWrite?: (change: NotificationChange) => void;
  transaction?: <T>(write: () => T) => T;
}

/** Notification use cases: create with dedup by key, read, list, status changes, and the writes ARC events make. */
export class NotificationService {
  constructor(private readonly deps: NotificationServiceDeps) {}

  create(body: unknown): UpsertResult {
    const request = parseCreateRequest(body);
    const draft: NotificationDraft = {
      ...request,
      priority: effectivePriority(request.priority, request.type, this.deps.types()),
    };
    return this.store(draft);
  }

  /**
   * Persists a validated draft: a new notification, or the in-place refresh of its key's active one.
   * With an ARC event identity seen before, the original notification comes back unchanged; with
   * activeOnly (ARC request.updated), 404 when the key has no active notification, nothing created.
   */
  store(draft: NotificationDraft, options: UpsertOptions = {}): UpsertResult {
    const now = this.deps.clock();
    const { result, change } = this.commit(() => {
      const result = this.deps.store.upsert(this.deps.newId(), draft, now, options);
      // A replayed ARC event returns its original row untouched: only a write that changed it is news.
      let change: NotificationChange | undefined;
      if (result?.created) change = { kind: 'created', record: result.record };
      else if (result && result.record.updatedAt === now) change = { kind: 'updated', record: result.record };
      return { result, change };
    });
    if (!result) throw new NotFoundError();
    if (change) this.deps.changes?.publish(change);
    return result;
  }

  /** Runs a write and what belongs to its change in one transaction. */
  private commit<T extends { change?: NotificationChange | undefined }>(write: () => T): T {
    const run = () => {
      const outcome = write();
      if (outcome.change) this.deps.withinWrite?.(outcome.change);
      return outcome;
    };
    return this.deps.transaction ? this.deps.transaction(run) : run();
  }

  /** ARC request.updated: replaces the visible state of the key's active notification; never creates. */
  replaceActive(draft: NotificationDraft): NotificationRecord {
    return this.store(draft, { activeOnly: true }).record;
  }

  /**
   * Resolves the active notification with this key. When none is active, the latest one with the key
   * is returned unchanged (resolving again is idempotent); 404 when the key was never used.
   */
  resolveCondition(key: string): NotificationRecord {
    const current = this.deps.store.conditionByKey(key);
    if (!current) throw new NotFoundError();
    if (current.status !== 'active') return current;
    return this.transition(current.id, 'resolved');
  }

  get(id: string): NotificationRecord {
    const record = this.deps.store.get(id);
    if (!record) throw new NotFoundError();
    return record;
  }

  list(query: Record<string, string | string[] | undefined>): NotificationRecord[] {
    return this.deps.store.list(parseListQuery(query));
  }

  changeStatus(id: string, body: unknown): NotificationRecord {
    const target = parseStatusChange(body);
    return this.transition(id, target);
  }

  dismiss(id: string): NotificationRecord {
    return this.transition(id, 'dismissed');
  }

  countActive(): number {
    return this.deps.store.countActive();
  }

  private transition(id: string, target: Status): NotificationRecord {
    const current = this.get(id);
    if (!checkTransition(current.status, target)) return current;
    try {
      const { change } = this.commit(() => {
        const updated = this.deps.store.setStatus(id, target, this.deps.clock());
        if (!updated) throw new NotFoundError();
        return { change: { kind: 'status', record: updated, previous: current.status } as const };
      });
      this.deps.changes?.publish(change);
      return change.record;
    } catch (error) {
      if (error instanceof ActiveKeyTakenError) {
        throw new InvalidRequestError(
          `cannot reopen: another active notification already has key "${current.key}"; dismiss or resolve it first`,
        );
      }
      throw error;
    }
  }
}
