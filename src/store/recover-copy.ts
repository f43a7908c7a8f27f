import type { Db } from './database.js';
import { quoteName, type SchemaCatalog, type SchemaTable } from './schema-catalog.js';
import Database from './sqlite.js';

/** What became of one table of Notify's schema. */
export type TableRecovery =
  | {
      table: string;
      state: 'read';
      /** Rows copied into the new database. */
      recovered: number;
      /** Rows read but refused by the new database: they break a rule of the schema. */
      leftOut: number;
      /** Rows on damaged pages that an index of the damaged file still lists. */
      unread: number;
      /** Whether `unread` counts every row lost (an index was read whole); otherwise more may be lost. */
      unreadExact: boolean;
    }
  /** `missing`: the damaged file should hold the table but does not; `predates`: its schema is older. */
  | { table: string; state: 'missing' | 'predates' }
  | { table: string; state: 'refused' | 'unreadable'; reason: string };

export interface CopyResult {
  tables: TableRecovery[];
  /** Objects of the damaged file that are not Notify's (`trigger x`, `view y`): never read, never copied. */
  ignored: string[];
}

interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
}

const MIN_ROWID = -(2n ** 63n);
const MAX_ROWID = 2n ** 63n - 1n;

/**
 * Copies, table by table and row by row, every row of Notify's schema that can still be read from the
 * damaged file into `target` (a new database with the newest schema). Only the tables the schema names
 * are read, and only when the file holds them as plain tables: a view, a virtual table or a computed
 * column under one of those names is refused unread, and the file's triggers and views are never
 * copied (the new database has the schema's own). Nothing is ever written to the damaged file.
 */
export function copyReadableTables(file: string, target: Db, catalog: SchemaCatalog): CopyResult {
  let source: Db;
  let version: number;
  let objects: SchemaObject[];
  try {
    source = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return everyTableUnreadable(catalog, error);
  }
  try {
    try {
      // A truncated file is refused outright unless the schema is "writable" (which better-sqlite3's
      // defensive mode forbids): SQLite then reads the pages that are there instead of trusting the
      // page count in the header. The connection is read-only all the same.
      source.unsafeMode(true);
      source.pragma('writable_schema = ON');
      source.pragma('trusted_schema = OFF');
      version = source.pragma('user_version', { simple: true }) as number;
      objects = source.prepare<[], SchemaObject>('SELECT type, name, tbl_name FROM sqlite_master').all();
    } catch (error) {
      return everyTableUnreadable(catalog, error);
    }
    if (version > catalog.version) {
      throw new Error(
        `the damaged database's schema is version ${version}, newer than this Notify understands (${catalog.version}); recover it with the newer Notify`,
      );
    }
    const tables = catalog.tables.map((table) => recoverTable(source, target, table, version, objects));
    const ignored = objects
      .filter((object) => !catalog.names.has(object.name.toLowerCase()))
      // SQLite's own tables (statistics, sequences) hold nothing of Notify's.
      .filter((object) => !object.name.toLowerCase().startsWith('sqlite_'))
      .map((object) => `${object.type} ${object.name}`);
    return { tables, ignored };
  } finally {
    source.close();
  }
}

function everyTableUnreadable(catalog: SchemaCatalog, error: unknown): CopyResult {
  const reason = (error as Error).message;
  return {
    tables: catalog.tables.map((table) => ({ table: table.name, state: 'unreadable', reason })),
    ignored: [],
  };
}

function recoverTable(
  source: Db,
  target: Db,
  table: SchemaTable,
  version: number,
  objects: SchemaObject[],
): TableRecovery {
  const name = table.name.toLowerCase();
  const entry = objects.find((object) => object.name.toLowerCase() === name);
  if (!entry) return { table: table.name, state: table.since > version ? 'predates' : 'missing' };
  if (entry.type !== 'table')
    return { table: table.name, state: 'refused', reason: `it is a ${entry.type}, not a table` };
  let columns: string[];
  let read: RowReader;
  try {
    const shape = tableShape(source, table);
    if (typeof shape === 'string') return { table: table.name, state: 'refused', reason: shape };
    columns = shape;
    read = rowReader(source, table.name, columns);
  } catch (error) {
    return { table: table.name, state: 'unreadable', reason: (error as Error).message };
  }
  const insert = target.prepare(
    `INSERT INTO ${quoteName(table.name)} (${columns.map(quoteName).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  let recovered = 0;
  let leftOut = 0;
  const gaps = target.transaction(() =>
    copyRows(read, (values) => {
      try {
        insert.run(values);
        recovered++;
      } catch (error) {
        // Anything else (a full disk) stops the recovery: the new database would not hold what it says.
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw error;
        leftOut++;
      }
    }),
  )();
  const lost = gaps.length === 0 ? { unread: 0, exact: true } : rowsInGaps(source, table, objects, gaps);
  return {
    table: table.name,
    state: 'read',
    recovered,
    leftOut,
    unread: lost.unread,
    unreadExact: lost.exact,
  };
}

/**
 * The schema's columns the file's table stores; or why the table is refused: it is not a plain table,
 * or one of those columns is computed on reading (an expression the file chose).
 */
function tableShape(source: Db, table: SchemaTable): string[] | string {
  const [listed] = source.pragma(`table_list(${quoteName(table.name)})`) as { type: string; wr: number }[];
  if (listed === undefined) return 'SQLite cannot read its definition';
  if (listed.type !== 'table') return `it is a ${listed.type} table, not a plain one`;
  if (listed.wr !== 0) return 'it is a table without rowids, not a plain one';
  const stored = new Map(
    (source.pragma(`table_xinfo(${quoteName(table.name)})`) as { name: string; hidden: number }[]).map(
      (column) => [column.name.toLowerCase(), column.hidden],
    ),
  );
  const columns = table.columns.filter((column) => stored.has(column.toLowerCase()));
  const computed = columns.find((column) => stored.get(column.toLowerCase()) !== 0);
  if (computed !== undefined) return `its column ${computed} is computed, not stored`;
  if (columns.length === 0) return "it has none of Notify's columns";
  return columns;
}

/** The first row (rowid first) at or after a rowid, then the next ones; a damaged page throws. */
type RowReader = (from: bigint) => Iterator<unknown[]>;

function rowReader(source: Db, table: string, columns: string[]): RowReader {
  const statement = source
    .prepare<[bigint], unknown[]>(
      `SELECT rowid, ${columns.map(quoteName).join(', ')} FROM ${quoteName(table)} WHERE rowid >= ? ORDER BY rowid`,
    )
    .raw(true)
    // int64 values exactly, whatever the file holds: a rowid past 2^53 must still move the scan on.
    .safeIntegers(true);
  return (from) => statement.iterate(from);
}

/**
 * Reads the table in rowid order, handing each row (without its rowid) to `keep`. Where a damaged page
 * stops the scan, reading resumes at the first rowid whose page can be read (found by doubling steps,
 * then bisection). Returns the rowid ranges that could not be read.
 */
function copyRows(read: RowReader, keep: (values: unknown[]) => void): [bigint, bigint][] {
  const gaps: [bigint, bigint][] = [];
  let from = MIN_ROWID;
  for (;;) {
    const { last, failed } = copyFrom(read, from, keep);
    if (!failed) return gaps;
    const readableFrom = nextReadable(read, last ?? from);
    gaps.push([
      last === undefined ? from : last + 1n,
      readableFrom === undefined ? MAX_ROWID : readableFrom - 1n,
    ]);
    if (readableFrom === undefined) return gaps;
    from = readableFrom;
  }
}

function copyFrom(
  read: RowReader,
  from: bigint,
  keep: (values: unknown[]) => void,
): { last: bigint | undefined; failed: boolean } {
  let last: bigint | undefined;
  let rows: Iterator<unknown[]>;
  try {
    rows = read(from);
  } catch {
    return { last, failed: true };
  }
  for (;;) {
    let next: IteratorResult<unknown[]>;
    try {
      next = rows.next();
    } catch {
      return { last, failed: true };
    }
    if (next.done) return { last, failed: false };
    last = next.value[0] as bigint;
    try {
      keep(next.value.slice(1));
    } catch (error) {
      rows.return?.();
      throw error;
    }
  }
}

/** The smallest rowid after `after` from which the first row can be read; undefined when none is. */
function nextReadable(read: RowReader, after: bigint): bigint | undefined {
  let failing = after;
  let step = 1n;
  while (failing < MAX_ROWID) {
    const probe = failing + step > MAX_ROWID ? MAX_ROWID : failing + step;
    if (readsFirstRow(read, probe)) {
      let readable = probe;
      while (readable - failing > 1n) {
        const middle = failing + (readable - failing) / 2n;
        if (readsFirstRow(read, middle)) readable = middle;
        else failing = middle;
      }
      return readable;
    }
    failing = probe;
    step *= 2n;
  }
  return undefined;
}

function readsFirstRow(read: RowReader, from: bigint): boolean {
  try {
    const rows = read(from);
    rows.next();
    rows.return?.();
    return true;
  } catch {
    return false;
  }
}

/**
 * How many rows lie in the ranges that could not be read, as the file's full indexes of the table list
 * them (an index keeps every row's rowid on pages of its own). Exact when one of them was read whole.
 */
function rowsInGaps(
  source: Db,
  table: SchemaTable,
  objects: SchemaObject[],
  gaps: [bigint, bigint][],
): { unread: number; exact: boolean } {
  const lost = new Set<bigint>();
  let exact = false;
  let partial: Map<string, number>;
  try {
    partial = new Map(
      (source.pragma(`index_list(${quoteName(table.name)})`) as { name: string; partial: number }[]).map(
        (index) => [index.name.toLowerCase(), index.partial],
      ),
    );
  } catch {
    return { unread: 0, exact: false };
  }
  for (const index of table.fullIndexes) {
    const present = objects.some(
      (object) =>
        object.type === 'index' &&
        object.name.toLowerCase() === index.toLowerCase() &&
        object.tbl_name.toLowerCase() === table.name.toLowerCase(),
    );
    if (!present || partial.get(index.toLowerCase()) !== 0) continue;
    try {
      const rowids = source
        .prepare<[], [bigint]>(`SELECT rowid FROM ${quoteName(table.name)} INDEXED BY ${quoteName(index)}`)
        .raw(true)
        .safeIntegers(true)
        .iterate();
      for (const [rowid] of rowids) if (inGaps(rowid, gaps)) lost.add(rowid);
      exact = true;
    } catch {
      // A damaged index page: the rowids read before it still count.
    }
  }
  return { unread: lost.size, exact };
}

/** Gaps are in rowid order and apart: a bisection finds the one that could hold the rowid. */
function inGaps(rowid: bigint, gaps: [bigint, bigint][]): boolean {
  let low = 0;
  let high = gaps.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = gaps[middle]!;
    if (rowid < start) high = middle - 1;
    else if (rowid > end) low = middle + 1;
    else return true;
  }
  return false;
}
