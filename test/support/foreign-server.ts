import { spawn, type ChildProcess } from 'node:child_process';

/** The uid of `nobody`: another user of the machine, for the tests that run as root. */
export const NOBODY = 65534;

export interface ForeignServer {
  port: number;
  /** Every byte the server received, as `RECEIVED "<text>"` lines; empty when nothing reached it. */
  received(): string;
  stop(): void;
}

/**
 * A TCP server that accepts connections, never answers and prints every byte it receives, started as
 * `uid` (default nobody): what a neighbour on a shared machine could start on the broker's port while
 * the broker is down. Whatever a client sent it, the token included, shows in received().
 */
export async function startForeignServer(
  host: string,
  uid: number | undefined = NOBODY,
): Promise<ForeignServer> {
  const script = `
    const server = require('node:net').createServer((socket) => {
      socket.on('data', (chunk) => process.stdout.write('RECEIVED ' + JSON.stringify(chunk.toString()) + '\\n'));
      socket.on('error', () => {});
    });
    server.listen(0, ${JSON.stringify(host)}, () => console.log('PORT ' + server.address().port));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], {
    ...(uid !== undefined && { uid, gid: uid }),
    cwd: '/',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`the server as uid ${uid} exited with ${code}: ${output}`)),
    );
  });
  return { port, received: () => output.replace(/^PORT \d+\n/, ''), stop: () => child.kill() };
}

/** What notify and notifyctl print when they refuse another user's listener (docs/cli.md). */
export function foreignListenerText(port: number, uid: number = NOBODY): string {
  return (
    `The program listening at http://127.0.0.1:${port} belongs to another user (uid ${uid}), not to you (uid ${process.getuid!()}), ` +
    `so nothing was sent to it: it could be someone else's program waiting for your token. ` +
    `Stop that program, or run notifyd on another port ("port" in config.json) and use that port (--port or NOTIFY_PORT).\n`
  );
}

/** Gives a client that wrongly sent something a moment for its bytes to arrive before they are counted. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100));
}
