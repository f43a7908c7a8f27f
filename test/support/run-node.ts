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
}

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
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.stdin);
  });
}
