import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const viaSocket = new WeakSet<Socket>();

/** True for a request that came over the broker's Unix socket, not its loopback port. */
export function cameOverUnixSocket(request: FastifyRequest): boolean {
  return viaSocket.has(request.raw.socket);
}

/** The folder or socket is not ours to use: someone else made it, or it is something else. */
export class UnsafeSocketPathError extends Error {
  override name = 'UnsafeSocketPathError';
}

/**
 * Serves the broker's HTTP API on a Unix socket beside its port (issue 33): the same server, guards
 * and routes, fed the socket's connections. The folder is made 0700 and the socket 0600, so only this
 * user can connect; a socket left by a broker that died is replaced, anything else in its place is not.
 */
export async function listenOnUnixSocket(app: FastifyInstance, path: string): Promise<Server> {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const info = lstatSync(folder);
  if (!info.isDirectory() || info.uid !== process.getuid?.())
    throw new UnsafeSocketPathError(`${folder} is not a folder of this user`);
  chmodSync(folder, 0o700);
  removeStaleSocket(path);
  const server = createServer((socket) => {
    viaSocket.add(socket);
    app.server.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  return server;
}

/** Stops accepting; the connections it handed over close with the HTTP server. */
export function closeUnixSocket(server: Server, path: string): Promise<void> {
  return new Promise((resolve) =>
    server.close(() => {
      // net removes the file itself on close; a second try does no harm when it did.
      removeStaleSocket(path);
      resolve();
    }),
  );
}

/**
 * Only this broker runs now (it holds the data lock and its port), so a socket of ours in the place is
 * left from one that died. A file or a link there is someone's: refused, never deleted.
 */
function removeStaleSocket(path: string): void {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return;
  }
  if (!info.isSocket() || info.uid !== process.getuid?.())
    throw new UnsafeSocketPathError(`${path} exists and is not a socket of this user; remove it`);
  unlinkSync(path);
}
