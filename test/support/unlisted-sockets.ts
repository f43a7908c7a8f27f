import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessResult, RunOptions } from './run-node.js';

/**
 * Builds, in a private mount namespace, a /proc whose every entry is the real one except net/tcp and
 * net/tcp6: those hold only their header line, so the kernel's socket tables list no socket at all.
 * The bind mount of the real /proc keeps /proc/self and the rest working for Node.
 */
const FAKE_PROC = `set -e
real="$1"; shift
mkdir "$real"
mount --bind /proc "$real"
mount -t tmpfs tmpfs /proc
for entry in "$real"/*; do
  case "\${entry##*/}" in *[!0-9]*) ln -s "$entry" "/proc/\${entry##*/}" ;; esac
done
rm /proc/net
mkdir /proc/net
head -n 1 "$real/net/tcp" > /proc/net/tcp
head -n 1 "$real/net/tcp6" > /proc/net/tcp6
exec "$@"
`;

/**
 * Runs a Node script (notify, the hook bundle) as a process for which /proc/net/tcp and tcp6 are
 * readable but list no socket, as when the kernel shows nothing for a connection. Needs root (unshare
 * and mount); the mount namespace ends with the process, the real /proc is never changed.
 */
export function runWithUnlistedSockets(
  file: string,
  args: string[],
  options: RunOptions,
): Promise<ProcessResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'notify-unlisted-'));
  const script = join(scratch, 'fake-proc.sh');
  writeFileSync(script, FAKE_PROC);
  const realProc = join(scratch, 'proc');
  return new Promise<ProcessResult>((resolve, reject) => {
    const child = spawn(
      'unshare',
      ['--mount', '--propagation', 'private', 'sh', script, realProc, process.execPath, file, ...args],
      { env: options.env, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.stdin);
  }).finally(() => rmSync(scratch, { recursive: true, force: true }));
}
