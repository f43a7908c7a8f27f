import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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

/**
 * Takes the data folder for this process: `notifyd.lock` holds its pid, created exclusively. A lock
 * whose process is gone (a crash, kill -9) is taken over; a live one refuses with DataFolderInUseError.
 */
export function lockDataFolder(dataDir: string, holder = 'another Notify broker'): DataFolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid} ${holder}\n`);
      } finally {
        closeSync(fd);
      }
      // Two processes taking over the same stale lock at once: only the one whose pid stayed wins.
      if (readLock(file)?.pid === process.pid) return { file, release: () => release(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = readLock(file);
      if (other && other.pid !== process.pid && isNotifyProcess(other.pid)) {
        throw new DataFolderInUseError(
          `${other.holder} (pid ${other.pid}) is using the data folder ${dataDir}; stop it first (or remove ${file} if pid ${other.pid} is not Notify)`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataFolderInUseError(`could not take the lock ${file} of the data folder ${dataDir}; try again`);
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
