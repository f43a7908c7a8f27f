import { fork } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CopyResult } from './recover-copy.js';

export type { TableRecovery } from './recover-copy.js';

export interface RecoveryReport extends CopyResult {
  /** Where the damaged file was moved, untouched. */
  damagedCopy: string;
}

/** What the recovery process sends back: its result, or why it could not finish. */
export type RecoveryReply = { result: CopyResult } | { error: string };

/** The recovery did not finish in time; nothing was changed. */
export class RecoveryTimeLimitError extends Error {
  override name = 'RecoveryTimeLimitError';
  constructor(readonly timeLimitMs: number) {
    super(`the recovery did not finish within ${timeLimitMs / 1000} s and was stopped; nothing was changed`);
  }
}

const CHILD = fileURLToPath(new URL('./recover-child.js', import.meta.url));
/** Bytes of the child's stderr kept for the message when it dies without an answer. */
const MAX_CHILD_STDERR = 4000;

/**
 * Copies every row of Notify's schema that can still be read from a damaged database into a fresh one,
 * then moves the damaged file aside (`<file>.damaged-<time>`, never written to, never deleted) and puts
 * the new one in its place. The reading runs in a child process killed at `timeLimitMs`: a hostile
 * file cannot hold the recovery forever, and when it is stopped nothing has changed. The caller holds
 * the data folder's lock, so no broker has the file open.
 */
export async function recoverDatabase(
  file: string,
  timeLimitMs: number,
  now: Date = new Date(),
): Promise<RecoveryReport> {
  if (!existsSync(file)) throw new Error(`there is no database at ${file}`);
  if (!statSync(file).isFile())
    throw new Error(`${file} is not a regular file; move it away, then start Notify`);
  const fresh = `${file}.recovering`;
  removeWithCompanions(fresh);
  // Reading a WAL database creates an empty -wal; only one that was there holds rows worth keeping.
  const hadWal = existsSync(`${file}-wal`);
  let result: CopyResult;
  try {
    result = await readInChild(file, fresh, timeLimitMs);
  } catch (error) {
    removeWithCompanions(fresh);
    if (!hadWal) removeIfEmpty(`${file}-wal`);
    throw error;
  }
  const damagedCopy = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, damagedCopy);
  if (hadWal && existsSync(`${file}-wal`)) renameSync(`${file}-wal`, `${damagedCopy}-wal`);
  else removeIfEmpty(`${file}-wal`);
  rmSync(`${file}-shm`, { force: true });
  renameSync(fresh, file);
  return { ...result, damagedCopy };
}

function readInChild(source: string, target: string, timeLimitMs: number): Promise<CopyResult> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [source, target], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    let reply: RecoveryReply | undefined;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeLimitMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_CHILD_STDERR) stderr += chunk.toString();
    });
    child.on('message', (message) => (reply = message as RecoveryReply));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) reject(new RecoveryTimeLimitError(timeLimitMs));
      else if (reply && 'result' in reply) resolve(reply.result);
      else if (reply) reject(new Error(reply.error));
      else {
        const output = stderr.trim().slice(0, MAX_CHILD_STDERR);
        const how = signal ?? `exit code ${code}`;
        reject(
          new Error(`the recovery process ended without an answer (${how})${output ? `: ${output}` : ''}`),
        );
      }
    });
  });
}

function removeWithCompanions(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

function removeIfEmpty(file: string): void {
  if (existsSync(file) && statSync(file).size === 0) rmSync(file);
}
