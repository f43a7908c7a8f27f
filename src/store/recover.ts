import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { openDatabase, type Db } from './database.js';
import Database from './sqlite.js';

export interface RecoveryReport {
  /** Notifications copied into the new database. */
  recovered: number;
  /** Where the damaged file was moved, untouched. */
  damagedCopy: string;
}

const COLUMNS =
  'seq, id, key, agent, agent_instance, project, type, priority, title, message, cwd, pid, status, created_at, updated_at, resolved_at, metadata, arc_sender_id, arc_event_id';
/** After a read error at seq n, reading resumes at n + 1, n + 2, n + 4 ... up to this many doublings. */
const MAX_SKIPS = 40;

/**
 * Copies every notification that can still be read from a damaged database into a fresh one, then
 * moves the damaged file aside (`<file>.damaged-<time>`) and puts the new one in its place. Rows are
 * read in seq order; where a damaged page stops the scan, reading resumes past it. Rows that break a
 * rule of the schema (a second active row for a key, a garbage status) are left out. The caller holds
 * the data folder's lock, so no broker has the file open.
 */
export function recoverDatabase(file: string, now: Date = new Date()): RecoveryReport {
  if (!existsSync(file)) throw new Error(`there is no database at ${file}`);
  if (!statSync(file).isFile())
    throw new Error(`${file} is not a regular file; move it away, then start Notify`);
  const fresh = `${file}.recovering`;
  removeWithCompanions(fresh);
  const target = openDatabase(fresh);
  let recovered: number;
  try {
    recovered = copyReadableRows(file, target);
  } finally {
    target.close();
  }
  const damagedCopy = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal']) {
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${damagedCopy}${suffix}`);
  }
  rmSync(`${file}-shm`, { force: true });
  renameSync(fresh, file);
  return { recovered, damagedCopy };
}

function copyReadableRows(file: string, target: Db): number {
  let source: Db;
  try {
    source = new Database(file, { fileMustExist: true });
  } catch {
    return 0;
  }
  try {
    // A truncated file is refused outright unless the schema is "writable" (which better-sqlite3's
    // defensive mode forbids): SQLite then reads the pages that are there instead of trusting the page
    // count in the header. Nothing is ever written to the source.
    source.unsafeMode(true);
    source.pragma('writable_schema = ON');
    const read = source.prepare(`SELECT ${COLUMNS} FROM notifications WHERE seq > ? ORDER BY seq`).raw(true);
    const names = COLUMNS.split(', ');
    const insert = target.prepare(
      `INSERT OR IGNORE INTO notifications (${COLUMNS}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    let copied = 0;
    target.transaction(() => {
      let after = 0;
      let skips = 0;
      while (skips <= MAX_SKIPS) {
        let reachedEnd = true;
        try {
          for (const row of read.iterate(after) as Iterable<unknown[]>) {
            after = row[0] as number;
            copied += insert.run(row).changes;
            skips = 0;
          }
        } catch {
          reachedEnd = false;
        }
        if (reachedEnd) break;
        after += 2 ** skips;
        skips++;
      }
    })();
    return copied;
  } catch {
    // Not even the table can be found: the file holds nothing that can be read.
    return 0;
  } finally {
    source.close();
  }
}

function removeWithCompanions(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}
