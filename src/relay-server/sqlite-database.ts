/** The SQLite SqlDatabase: one file in --data (relay.db), better-sqlite3's synchronous calls behind promises. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { chmodSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Parameter, Row, SqlDatabase } from './sql-database.js';

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite';
  private readonly db: Database.Database;
  /** Set inside a transaction's work: its statements go straight in, everyone else's wait for its end. */
  private readonly inTransaction = new AsyncLocalStorage<true>();
  private open = false;
  private ended: Promise<void> = Promise.resolve();
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.db = new Database(file);
    chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
  }

  all(sql: string, parameters: Parameter[] = []): Promise<Row[]> {
    return this.whenFree(() => this.statement(sql).all(...parameters) as Row[]);
  }

  get(sql: string, parameters: Parameter[] = []): Promise<Row | undefined> {
    return this.whenFree(() => this.statement(sql).get(...parameters) as Row | undefined);
  }

  run(sql: string, parameters: Parameter[] = []): Promise<number> {
    return this.whenFree(() => this.statement(sql).run(...parameters).changes);
  }

  exec(sql: string): Promise<void> {
    return this.whenFree(() => void this.db.exec(sql));
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore()) return work();
    // Queued behind the transaction open now: the connection is shared, so they take turns.
    while (this.open) await this.ended;
    this.open = true;
    let end!: () => void;
    this.ended = new Promise((resolve) => (end = resolve));
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.inTransaction.run(true, work);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.open = false;
      end();
    }
  }

  /** One SQLite file has one relay process: the transaction is lock enough. */
  withMigrationLock<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async close(): Promise<void> {
    while (this.open) await this.ended;
    this.db.close();
  }

  /**
   * A statement outside any transaction waits until the open one (another request's) has ended; the
   * last check and the statement run without a pause between them.
   */
  private async whenFree<T>(statement: () => T): Promise<T> {
    while (this.open && !this.inTransaction.getStore()) await this.ended;
    return statement();
  }

  private statement(sql: string): Database.Statement {
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.prepared.set(sql, prepared);
    }
    return prepared;
  }
}
