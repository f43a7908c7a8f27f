import { spawn } from 'node:child_process';

export interface SshTarget {
  /** `[user@]host`, or a Host alias of ~/.ssh/config. */
  destination: string;
  port?: number;
  /** Keep the forwards ~/.ssh/config gives the alias (remote test goes through the desk's forward). */
  withForwards?: boolean;
}

export interface SshResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `'...'` for a POSIX shell: the remote runs each command through the user's shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `script` with sh on the remote over the ssh on PATH, `input` on its stdin. Secrets (the token)
 * travel only on stdin, never on a command line. ssh asks for a password or a new host key on the
 * terminal itself, not on stdin.
 */
export function runSsh(target: SshTarget, script: string, input: string | Buffer = ''): Promise<SshResult> {
  const args = [
    ...(target.port === undefined ? [] : ['-p', String(target.port)]),
    '-o',
    'ConnectTimeout=15',
    // A connection for setting up takes no forward: the desk's opens with the person's `ssh NAME`.
    ...(target.withForwards ? [] : ['-o', 'ClearAllForwardings=yes']),
    target.destination,
    '--',
    `sh -c ${shellQuote(script)}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => {});
    child.once('error', (error) =>
      reject(
        new Error(
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'ssh is not installed here (the OpenSSH client)'
            : error.message,
        ),
      ),
    );
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Writes `content` to `path` on the remote: folders made, only its owner may read it (umask 077). */
export function writeRemoteFile(target: SshTarget, path: string, content: string | Buffer, mode = '600') {
  const file = shellQuote(path);
  const temporary = shellQuote(`${path}.notify-new`);
  return runSsh(
    target,
    `umask 077 && mkdir -p "$(dirname ${file})" && cat > ${temporary} && chmod ${mode} ${temporary} && mv -f ${temporary} ${file}`,
    content,
  );
}
