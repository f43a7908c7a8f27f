import { spawn, type ChildProcess } from 'node:child_process';
import { NOTIFYD } from './broker-process.js';

/** A notifyd started with exactly these arguments and environment, as a person would start it. */
export interface NotifydRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The exit code once it ended (it may have refused to start). */
  exited: Promise<number | null>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns notifyd and resolves once its banner is complete, or once it exited (a refused start); a
 * notifyd that does neither within 10 s is killed, so a failing test never leaves one running.
 */
export async function runNotifyd(args: string[], env: NodeJS.ProcessEnv): Promise<NotifydRun> {
  const child = spawn(process.execPath, [NOTIFYD, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const giveUp = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('Ctrl+C stops it.')) resolve();
    });
    void exited.then(() => resolve());
  }).finally(() => clearTimeout(giveUp));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
