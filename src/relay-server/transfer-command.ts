/**
 * `notify-relay export` and `notify-relay import`: every table of the relay as JSON lines
 * ({"table": …, "row": {…}}), so a relay moves between SQLite and PostgreSQL (docs/relay.md "Many people").
 */
import { createInterface } from 'node:readline';
import type { Target } from './args.js';
import { describeTarget, openDatabase } from './open-database.js';
import type { RelayIo } from './relay-io.js';
import type { Parameter, Row, SqlDatabase } from './sql-database.js';
import { RelayStore } from './store.js';

/** Parents before children, so the foreign keys hold at every insert. */
export const RELAY_TABLES = [
  'users',
  'sessions',
  'invites',
  'pairings',
  'installations',
  'notifications',
  'idempotency',
  'events',
  'push_keys',
  'push_subscriptions',
  'push_queue',
  'push_tokens',
] as const;

/** Numbers a database makes itself: PostgreSQL's sequences continue after the imported rows. */
const IDENTITIES: Partial<Record<(typeof RELAY_TABLES)[number], string>> = {
  notifications: 'inbox_id',
  events: 'id',
  push_queue: 'id',
};

export async function columnsOf(db: SqlDatabase, table: string): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all(`PRAGMA table_info(${table})`)
      : await db.all(
          'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
          [table],
        );
  return rows.map((row) => row['name'] as string);
}

/**
 * A session's or an invitation's own number (SQLite's rowid, PostgreSQL's id column) is not moved: the
 * target numbers them afresh, and they only name a row on the People page.
 */
async function movedColumns(db: SqlDatabase, table: string): Promise<string[]> {
  const columns = await columnsOf(db, table);
  return table === 'sessions' || table === 'invites' ? columns.filter((name) => name !== 'id') : columns;
}

/** The relay's rows as JSON lines to the command's stdout. */
export async function runExport(target: Target, io: Pick<RelayIo, 'stdout' | 'stderr'>): Promise<number> {
  const db = openDatabase(target);
  try {
    const store = await RelayStore.open(db);
    for (const table of RELAY_TABLES) {
      const columns = await movedColumns(db, table);
      const rows = await store.db.all(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY 1`);
      for (const row of rows) io.stdout.write(`${JSON.stringify({ table, row })}\n`);
    }
    return 0;
  } catch (error) {
    io.stderr.write(`notify-relay export failed on ${describeTarget(target)}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

/** The JSON lines of an export, read from the command's stdin, into an empty database. */
export async function runImport(target: Target, io: Pick<RelayIo, 'stdin' | 'stderr'>): Promise<number> {
  const db = openDatabase(target);
  const where = describeTarget(target);
  try {
    const store = await RelayStore.open(db);
    const counts = new Map<string, number>();
    await store.transaction(async () => {
      if ((await store.countUsers()) > 0) throw new Error('the database is not empty; import into a new one');
      const columns = new Map<string, string[]>();
      for (const table of RELAY_TABLES) columns.set(table, await movedColumns(db, table));
      let line = 0;
      for await (const text of createInterface({ input: io.stdin, crlfDelay: Infinity })) {
        line++;
        if (text.trim() === '') continue;
        const { table, row } = JSON.parse(text) as { table: string; row: Row };
        const known = columns.get(table);
        if (!known) throw new Error(`line ${line}: unknown table ${JSON.stringify(table)}`);
        const names = known.filter((name) => name in row);
        await db.run(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
          names.map((name) => row[name] as Parameter),
        );
        counts.set(table, (counts.get(table) ?? 0) + 1);
      }
      if (db.dialect === 'postgres')
        for (const [table, column] of Object.entries(IDENTITIES))
          await db.get(
            `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), COALESCE(MAX(${column}), 0) + 1, false) FROM ${table}`,
          );
    });
    const summary = RELAY_TABLES.map((table) => `${counts.get(table) ?? 0} ${table}`).join(', ');
    io.stderr.write(`notify-relay import into ${where}: ${summary}.\n`);
    return 0;
  } catch (error) {
    io.stderr.write(
      `notify-relay import into ${where} failed, nothing imported: ${(error as Error).message}\n`,
    );
    return 1;
  } finally {
    await db.close();
  }
}
