import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to the program's stdin, which is then closed; without it stdin is closed at once. */
  stdin?: string;
  /** Options for Node.js itself, before the script (`--require`, say). */
  nodeArgs?: string[];
  /** The program is killed and the run fails after this long: a command that hangs fails its test. */
  timeoutMs?: number;
}

/** Longer than any command of the tests runs; a shorter timeoutMs says "this answers at once". */
const DEFAULT_TIMEOUT_MS = 180_000;

/** Runs a script with this Node to its end; the environment is exactly `env` (no leaks from ours). */
export function runNode(file: string, args: string[], options: RunOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), file, ...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} did not end within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(options.stdin);
  });
}
