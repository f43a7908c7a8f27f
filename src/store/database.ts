import { closeSync, constants, fstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { asDamage, checkIntegrity, DatabaseDamagedError } from './integrity.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import Database, { type Db } from './sqlite.js';

export type { Db };

/** Room for the WAL between two automatic checkpoints (1000 pages); a larger one is cut back to this. */
const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * WAL with synchronous=NORMAL: a committed transaction survives a killed process (the WAL is written
 * before the answer); only a power loss can lose the last commits.
 */
export const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  `journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`,
  'foreign_keys = ON',
];

/**
 * While opening and migrating, wait for another program's lock as SQLite does; afterwards never: a
 * wait in SQLite's busy handler would freeze the event loop, so the WriteQueue retries on a timer.
 */
const OPEN_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating it 0600 if needed), checks and migrates the database. A damaged, truncated or garbage
 * file throws DatabaseDamagedError before anything is written to it.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    createOwnerOnly(file);
  }
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    checkIntegrity(db, file);
    for (const pragma of PRAGMAS) db.pragma(pragma);
    migrate(db, migrations);
    db.pragma('busy_timeout = 0');
  } catch (error) {
    db.close();
    throw asDamage(error, file) ?? error;
  }
  return db;
}

/**
 * Creates the file 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database's
 * mode. Non-blocking, so a FIFO in its place is refused (ENXIO without a reader) instead of hanging.
 */
function createOwnerOnly(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO')
      throw new DatabaseDamagedError(file, 'not a regular file');
    throw error;
  }
  const regular = fstatSync(fd).isFile();
  closeSync(fd);
  if (!regular) throw new DatabaseDamagedError(file, 'not a regular file');
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(
      `the database schema is version ${current}, newer than this Notify understands (${newest}); upgrade Notify`,
    );
  }
  for (const migration of migrations.filter((m) => m.version > current)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
}
