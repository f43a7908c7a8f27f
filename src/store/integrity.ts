import type { Db } from './sqlite.js';

/** The database file is not a sound SQLite database; the message names it and says what to do. */
export class DatabaseDamagedError extends Error {
  override name = 'DatabaseDamagedError';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(
      `the database ${file} is damaged (${detail}); nothing was written to it. ` +
        `Run 'notifyctl db recover' to copy what can still be read into a new database (the damaged file is kept beside it)`,
    );
  }
}

const DAMAGE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);
const MAX_REPORTED_PROBLEMS = 3;

/**
 * SQLite's quick_check (page structure, records, NOT NULL and CHECK; not index contents against their
 * tables, which integrity_check adds at several times the cost). Throws DatabaseDamagedError when the
 * file is damaged, garbage or truncated.
 */
export function checkIntegrity(db: Db, file: string): void {
  let problems: string[];
  try {
    problems = (db.pragma(`quick_check(${MAX_REPORTED_PROBLEMS})`) as { quick_check: string }[]).map(
      (row) => row.quick_check,
    );
  } catch (error) {
    throw asDamage(error, file) ?? error;
  }
  if (problems.length !== 1 || problems[0] !== 'ok') {
    throw new DatabaseDamagedError(file, `quick_check: ${problems.join('; ')}`);
  }
}

/** A DatabaseDamagedError when SQLite's error says the file is damaged; undefined otherwise. */
export function asDamage(error: unknown, file: string): DatabaseDamagedError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (!DAMAGE_CODES.has(code) && !code.startsWith('SQLITE_CORRUPT')) return undefined;
  return new DatabaseDamagedError(file, (error as Error).message);
}
