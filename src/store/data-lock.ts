import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another live broker (or `notifyctl db recover`) owns the data folder; the message names it, its pid and the folder. */
export class DataFolderInUseError extends Error {
  override name = 'DataFolderInUseError';
}

export interface DataFolderLock {
  readonly file: string;
  release(): void;
}

const LOCK_FILE = 'notifyd.lock';
/** Held only while a stale lock is taken over, so two starters never both remove and replace it. */
const TAKEOVER_FILE = 'notifyd.lock.takeover';
/** A takeover lasts microseconds; one older than this was left by a process that died in it. */
const TAKEOVER_STALE_MS = 10_000;
const ATTEMPTS = 200;

/**
 * Takes the data folder for this process. The lock `notifyd.lock` holds `<pid> <holder>` from the
 * instant it exists: it is written whole to a file of our own and then hard-linked into place, which
 * fails when a lock is there, so no starter ever sees it empty or half written. A lock whose process is
 * gone (a crash, kill -9) is taken over under a second link-made lock, so of two starters that find
 * the same stale lock only one removes it; the other tries again and meets the winner's live lock. A
 * live lock refuses with DataFolderInUseError.
 */
export function lockDataFolder(dataDir: string, holder = 'another Notify broker'): DataFolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(mine, `${process.pid} ${holder}\n`, { mode: 0o600, flag: 'wx' });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (linkInto(mine, file)) return { file, release: () => release(file) };
      const other = readLock(file);
      if (other && other.pid !== process.pid && isNotifyProcess(other.pid)) {
        throw new DataFolderInUseError(
          `${other.holder} (pid ${other.pid}) is using the data folder ${dataDir}; stop it first (or remove ${file} if pid ${other.pid} is not Notify)`,
        );
      }
      if (takeOver(dataDir, file, mine)) return { file, release: () => release(file) };
      sleep(5);
    }
  } finally {
    rmSync(mine, { force: true });
  }
  throw new DataFolderInUseError(`could not take the lock ${file} of the data folder ${dataDir}; try again`);
}

/** Creates `to` as a second name of `from`, with its whole content; false when `to` exists. */
function linkInto(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Replaces a stale lock with ours while holding the takeover lock; false when another starter holds
 * that, or the lock changed meanwhile (then the caller looks again).
 */
function takeOver(dataDir: string, file: string, mine: string): boolean {
  const takeover = join(dataDir, TAKEOVER_FILE);
  if (!linkInto(mine, takeover)) {
    removeIfAbandoned(takeover);
    return false;
  }
  try {
    const other = readLock(file);
    if (other && isNotifyProcess(other.pid)) return false;
    rmSync(file, { force: true });
    return linkInto(mine, file);
  } finally {
    rmSync(takeover, { force: true });
  }
}

function removeIfAbandoned(takeover: string): void {
  try {
    if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) rmSync(takeover, { force: true });
  } catch {
    // gone already
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function release(file: string): void {
  if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** `<pid> <holder>`: the holder is said in the message another process gets. */
function readLock(file: string): { pid: number; holder: string } | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    const space = text.indexOf(' ');
    const pid = Number.parseInt(text, 10);
    if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
    return { pid, holder: space === -1 ? 'another Notify process' : text.slice(space + 1) };
  } catch {
    return undefined;
  }
}

/** Alive, and on Linux still a Notify program: after a reboot the pid may belong to anything. */
function isNotifyProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return /notifyd|notifyctl/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}
