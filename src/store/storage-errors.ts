/**
 * Why the database refused a write. `full`: no room on the disk (or the size limit); `busy`: another
 * program holds SQLite's write lock; `failed`: any other I/O or commit-time failure. In every case the
 * transaction was rolled back: nothing of the write was stored.
 */
export type StorageProblem = 'full' | 'busy' | 'failed';

export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(
    readonly problem: StorageProblem,
    /** SQLite's own words, for the log only. */
    readonly detail: string,
  ) {
    super(`${problem}: ${detail}`);
  }
}

const FULL = new Set(['SQLITE_FULL']);
const BUSY_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED'];
const FAILED_PREFIXES = [
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
];

/** The storage problem an error from better-sqlite3 stands for; undefined for everything else. */
export function storageProblemOf(error: unknown): StorageUnavailableError | undefined {
  if (error instanceof StorageUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const detail = `${code} ${(error as Error).message}`;
  if (FULL.has(code)) return new StorageUnavailableError('full', detail);
  if (BUSY_PREFIXES.some((prefix) => code.startsWith(prefix)))
    return new StorageUnavailableError('busy', detail);
  if (FAILED_PREFIXES.some((prefix) => code.startsWith(prefix)))
    return new StorageUnavailableError('failed', detail);
  return undefined;
}
