/**
 * What the relay's store needs of a database, met by SQLite (one file, one process) and PostgreSQL
 * (any number of relay processes). The store's SQL is written once, with `?` parameters, in the part
 * of SQL both accept; the few places where they differ ask `dialect`.
 */
export type Row = Record<string, unknown>;

export type Dialect = 'sqlite' | 'postgres';

export type Parameter = string | number | null;

export interface SqlDatabase {
  readonly dialect: Dialect;
  all(sql: string, parameters?: Parameter[]): Promise<Row[]>;
  get(sql: string, parameters?: Parameter[]): Promise<Row | undefined>;
  /** The number of rows the statement changed. */
  run(sql: string, parameters?: Parameter[]): Promise<number>;
  /** Several statements without parameters (a migration's). */
  exec(sql: string): Promise<void>;
  /**
   * `work` and every statement it makes, here or in a store method it calls, commit together or not
   * at all; one transaction at a time writes, as with SQLite's single writer. A transaction begun
   * inside one is part of it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` while holding the database's migration lock: one process at a time migrates when
   * several start together.
   */
  withMigrationLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
