import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runNode, type ProcessResult, type RunOptions } from './run-node.js';

/** The `bin` of package.json for notifyctl. */
export const NOTIFYCTL = fileURLToPath(new URL('../../src/cli/notifyctl/main.js', import.meta.url));

/** Runs the real `notifyctl` to its end; the environment is exactly `env`. */
export function runNotifyctl(args: string[], options: RunOptions): Promise<ProcessResult> {
  return runNode(NOTIFYCTL, args, options);
}

/** A long-running notifyctl (watch, wait) whose output is read while it runs. */
export interface RunningCli {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  /** Resolves when stdout (or stderr) satisfies `predicate`; rejects after `ms`. */
  until(predicate: (cli: RunningCli) => boolean, ms?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function spawnNotifyctl(args: string[], options: RunOptions): RunningCli {
  const child = spawn(process.execPath, [NOTIFYCTL, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const cli: RunningCli = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
    async until(predicate, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!predicate(cli)) {
        if (Date.now() > deadline) {
          throw new Error(`notifyctl output condition not met in ${ms} ms:\n${cli.stdout}\n${cli.stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  child.stdout.on('data', (chunk: Buffer) => (cli.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (cli.stderr += chunk.toString()));
  return cli;
}
