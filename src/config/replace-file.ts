import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';

/** The mode a written file gets and, when known, the owner it keeps. */
export interface FileAttributes {
  mode: number;
  uid?: number;
  gid?: number;
}

/**
 * The permission bits and owner of the regular file at `file`; undefined when there is none (a link
 * or anything else in its place is replaced, not copied from).
 */
export function attributesOf(file: string): FileAttributes | undefined {
  try {
    const stat = lstatSync(file);
    return stat.isFile() ? { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Replaces `file` with `content` so a reader sees the old text or the new, never half: a fresh temp
 * file beside it (unpredictable name, created exclusively, so a link planted there is never followed)
 * is given the attributes `kept`, synced and renamed over it. A file we rewrite keeps the mode and
 * owner it had (a 0600 settings file holding API keys must not come back 0644); only root can give a
 * file away, which is when the owner differs (`sudo` with the person's HOME). A new file (`kept`
 * undefined) is created with `newMode` narrowed by the umask, as any program's would be.
 */
export function replaceFile(
  file: string,
  content: string,
  kept: FileAttributes | undefined,
  newMode = 0o644,
): void {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', (kept?.mode ?? newMode) & 0o777);
  try {
    if (kept !== undefined) keep(fd, kept);
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw error;
  }
}

function keep(fd: number, kept: FileAttributes): void {
  if (process.geteuid?.() === 0 && kept.uid !== undefined && kept.gid !== undefined) {
    fchownSync(fd, kept.uid, kept.gid);
  }
  // After the chown, which clears set-id bits; and open narrowed the mode by the umask.
  fchmodSync(fd, kept.mode);
}
