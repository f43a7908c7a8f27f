import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../baseline-server.js', import.meta.url));

export interface BaselineProcess {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts bench/baseline-server.js (or another baseline server printing `baseline listening on <port>`)
 * as its own process, like notifyd, with `args` after the database file, and waits until it listens.
 */
export async function startBaseline(
  databaseFile: string,
  server = SERVER,
  args: string[] = [],
): Promise<BaselineProcess> {
  const child = spawn(process.execPath, [server, databaseFile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /baseline listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) =>
      reject(new Error(`baseline exited with ${code} before listening:\n${output}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
