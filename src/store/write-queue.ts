import type { Transaction } from 'better-sqlite3';
import type { Db } from './database.js';
import { storageProblemOf, StorageUnavailableError } from './storage-errors.js';

export interface WriteQueueOptions {
  /** How long a write may wait, without blocking the event loop, for another program's write lock. */
  lockWaitMs?: number;
  /** Pause between two attempts to take the write lock. */
  lockRetryMs?: number;
  /** After this long without a write, the WAL is checkpointed and truncated. */
  idleCheckpointMs?: number;
}

/**
 * One unit of work: runs inside the batch's transaction. It may run twice (see WriteQueue), so it only
 * reads and writes the database and returns; effects elsewhere belong after its promise settles.
 */
export type WriteWork<T> = () => T;

interface Pending {
  work: WriteWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  deadline: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The one write path of the database (group commit). Every write is a function queued with `run`; the
 * writes queued during one turn of the event loop run together in one `BEGIN IMMEDIATE` transaction,
 * and each promise settles only after the COMMIT, so a write is answered only once it is stored, and a
 * failed COMMIT (full disk, I/O error) rejects every write of the batch.
 *
 * A work function that throws (a domain error, a constraint) fails alone: the batch is rolled back and
 * run again with each write in a savepoint of its own, and that one's savepoint is undone. Savepoints
 * only then, because each costs a create several percent of its time (issue 38) and almost every batch
 * succeeds. A storage failure (StorageUnavailableError) undoes the whole batch. Another store joins a
 * write by running its statements on the same Db inside the work function: they are then part of the
 * same transaction.
 *
 * When another program holds SQLite's write lock, the batch is retried on a timer (never by blocking
 * the event loop in SQLite's busy handler) until `lockWaitMs` has passed, then rejected as `busy`.
 */
export class WriteQueue {
  readonly #lockWaitMs: number;
  readonly #lockRetryMs: number;
  readonly #idleCheckpointMs: number;
  readonly #batch: Transaction<(items: Pending[]) => unknown[]>;
  readonly #isolated: Transaction<(items: Pending[]) => Outcome[]>;
  readonly #alone: Transaction<(work: WriteWork<unknown>) => unknown>;
  #pending: Pending[] = [];
  #flushScheduled = false;
  #lastWrite = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly db: Db,
    options: WriteQueueOptions = {},
  ) {
    this.#lockWaitMs = options.lockWaitMs ?? 500;
    this.#lockRetryMs = options.lockRetryMs ?? 10;
    this.#idleCheckpointMs = options.idleCheckpointMs ?? 1000;
    const unit = db.transaction((work: WriteWork<unknown>) => work());
    this.#alone = unit;
    this.#batch = db.transaction((items: Pending[]) => items.map((item) => item.work()));
    this.#isolated = db.transaction((items: Pending[]) =>
      items.map((item): Outcome => {
        try {
          return { ok: true, value: unit(item.work) };
        } catch (error) {
          if (storageProblemOf(error)) throw error;
          return { ok: false, error };
        }
      }),
    );
  }

  /** Resolves with what `work` returned once its transaction is committed; rejects if it was not. */
  run<T>(work: WriteWork<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(new StorageUnavailableError('failed', 'the database is closed'));
    }
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline: performance.now() + this.#lockWaitMs,
      });
      this.#scheduleFlush();
    });
  }

  /** Commits what is queued, checkpoints the WAL and stops the timers; later writes are refused. */
  close(): void {
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#idleTimer);
    this.#flush();
    for (const item of this.#pending.splice(0)) {
      item.reject(new StorageUnavailableError('failed', 'the database is closing'));
    }
    this.#closed = true;
    this.#checkpoint();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled || this.#retryTimer) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    const items = this.#pending;
    if (items.length === 0) return;
    this.#pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = items.length === 1 ? [this.#runAlone(items[0]!)] : this.#runBatch(items);
    } catch (error) {
      this.#failed(items, error);
      return;
    }
    this.#lastWrite = performance.now();
    this.#armIdleCheckpoint();
    outcomes.forEach((outcome, index) => {
      const item = items[index]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  /** Every write of the batch, or, when one of them throws, each in a savepoint (see the class). */
  #runBatch(items: Pending[]): Outcome[] {
    try {
      return this.#batch.immediate(items).map((value) => ({ ok: true, value }));
    } catch (error) {
      if (storageProblemOf(error)) throw error;
      return this.#isolated.immediate(items);
    }
  }

  /**
   * A write alone in its batch needs no savepoint (two more statements per write): when its work throws,
   * rolling the whole transaction back undoes the same writes. A storage failure still throws.
   */
  #runAlone(item: Pending): Outcome {
    try {
      return { ok: true, value: this.#alone.immediate(item.work) };
    } catch (error) {
      if (storageProblemOf(error)) throw error;
      return { ok: false, error };
    }
  }

  #failed(items: Pending[], error: unknown): void {
    const problem = storageProblemOf(error);
    if (problem?.problem !== 'busy' || this.#closed) {
      for (const item of items) item.reject(problem ?? error);
      return;
    }
    const now = performance.now();
    const waiting = items.filter((item) => item.deadline > now);
    for (const item of items) if (item.deadline <= now) item.reject(problem);
    this.#pending = [...waiting, ...this.#pending];
    if (this.#pending.length === 0) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#flush();
    }, this.#lockRetryMs);
  }

  /** One timer for a whole burst: it re-arms itself until the writes have stopped for the idle time. */
  #armIdleCheckpoint(): void {
    if (this.#idleTimer) return;
    const fire = () => {
      const idleFor = performance.now() - this.#lastWrite;
      if (idleFor < this.#idleCheckpointMs) {
        this.#idleTimer = setTimeout(fire, this.#idleCheckpointMs - idleFor);
        this.#idleTimer.unref();
        return;
      }
      this.#idleTimer = undefined;
      this.#checkpoint();
    };
    this.#idleTimer = setTimeout(fire, this.#idleCheckpointMs);
    this.#idleTimer.unref();
  }

  /** Copies the WAL into the database and truncates it; a reader elsewhere may defer that, harmlessly. */
  #checkpoint(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The WAL stays as it is until the next idle moment; nothing is lost.
    }
  }
}
