import { openDatabase, type Db } from './database.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export interface SchemaTable {
  name: string;
  /** The schema version whose migration creates the table. */
  since: number;
  /** Its columns in the newest schema. */
  columns: string[];
  /** Indexes holding an entry for every row (not partial): they still list a row whose page is lost. */
  fullIndexes: string[];
}

export interface SchemaCatalog {
  /** The newest schema version. */
  version: number;
  /** In creation order, so a table comes after the tables its foreign keys point to. */
  tables: SchemaTable[];
  /** Every table, index and trigger name of the newest schema, lower-cased as SQLite compares them. */
  names: Set<string>;
}

/**
 * What Notify's own schema holds, read from the migrations applied to empty in-memory databases: the
 * list a recovery trusts instead of whatever a damaged or hostile file's sqlite_master claims.
 */
export function schemaCatalog(migrations: readonly Migration[] = MIGRATIONS): SchemaCatalog {
  const since = new Map<string, number>();
  for (let count = 1; count <= migrations.length; count++) {
    const db = openDatabase(':memory:', migrations.slice(0, count));
    try {
      for (const name of tableNames(db))
        if (!since.has(name)) since.set(name, migrations[count - 1]!.version);
    } finally {
      db.close();
    }
  }
  const db = openDatabase(':memory:', migrations);
  try {
    // In the order the migrations first created them: a table a later migration rebuilt keeps its place.
    const present = new Set(tableNames(db));
    const tables = [...since.keys()]
      .filter((name) => present.has(name))
      .map((name) => ({
        name,
        since: since.get(name)!,
        columns: (db.pragma(`table_info(${quoteName(name)})`) as { name: string }[]).map(
          (column) => column.name,
        ),
        fullIndexes: (db.pragma(`index_list(${quoteName(name)})`) as { name: string; partial: number }[])
          .filter((index) => index.partial === 0)
          .map((index) => index.name),
      }));
    const names = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger')`,
      )
      .all()
      .map((row) => row.name.toLowerCase());
    return { version: migrations.at(-1)?.version ?? 0, tables, names: new Set(names) };
  } finally {
    db.close();
  }
}

function tableNames(db: Db): string[] {
  return db
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid`,
    )
    .all()
    .map((row) => row.name);
}

/** An SQL identifier, quoted. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
