/**
 * The PostgreSQL SqlDatabase, through node-postgres (`pg`): a bounded pool, a statement time-out, and
 * TLS as the URL's `sslmode` says. Any number of relay processes share one database.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { Parameter, Row, SqlDatabase } from './sql-database.js';

export interface PostgresOptions {
  /** Connections this process keeps at most. */
  poolSize: number;
  statementTimeoutMs: number;
}

export const POSTGRES_DEFAULTS: PostgresOptions = { poolSize: 10, statementTimeoutMs: 10_000 };

/** Keys of pg_advisory_lock: any fixed numbers the relay alone uses. */
const WRITE_LOCK = 7_302_611;
const MIGRATION_LOCK = 7_302_612;

/** 64-bit integers (counts, millisecond times) as numbers: they stay far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** `?` parameters as PostgreSQL's `$1, $2, …` (the store's SQL holds no `?` in a string literal). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres';
  private readonly pool: pg.Pool;
  /** The connection of the transaction the current work runs in. */
  private readonly inTransaction = new AsyncLocalStorage<pg.PoolClient>();

  constructor(url: string, options: PostgresOptions = POSTGRES_DEFAULTS) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize,
      statement_timeout: options.statementTimeoutMs,
      connectionTimeoutMillis: options.statementTimeoutMs,
      types,
    });
    // A connection the server dropped while idle: the pool makes another; nothing to crash over.
    this.pool.on('error', () => {});
  }

  async all(sql: string, parameters: Parameter[] = []): Promise<Row[]> {
    const client = this.inTransaction.getStore() ?? this.pool;
    return (await client.query(numbered(sql), parameters)).rows as Row[];
  }

  async get(sql: string, parameters: Parameter[] = []): Promise<Row | undefined> {
    return (await this.all(sql, parameters))[0];
  }

  async run(sql: string, parameters: Parameter[] = []): Promise<number> {
    const client = this.inTransaction.getStore() ?? this.pool;
    return (await client.query(numbered(sql), parameters)).rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    await (this.inTransaction.getStore() ?? this.pool).query(sql);
  }

  /**
   * Writers take one advisory lock for the length of their transaction: what a transaction read stays
   * true until it commits, as with SQLite's single writer, across every process. Reads outside
   * transactions run side by side.
   */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction.getStore()) return work();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
        const result = await this.inTransaction.run(client, work);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    } finally {
      client.release();
    }
  }

  async withMigrationLock<T>(work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  /** A connection of its own, for LISTEN. */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
