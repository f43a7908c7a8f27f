import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runNode, type ProcessResult, type RunOptions } from './run-node.js';

/** The `bin` of package.json, as an installed `notify` runs it. */
export const NOTIFY = fileURLToPath(new URL('../../notify.cjs', import.meta.url));

export type CliResult = ProcessResult;
export type { RunOptions };

/** Runs the real `notify` as a subprocess; the environment is exactly `env` (no leaks from ours). */
export function runNotify(args: string[], options: RunOptions): Promise<CliResult> {
  return runNode(NOTIFY, args, options);
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedReply {
  status: number;
  body?: string;
  contentType?: string;
}

export interface FakeBroker {
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records each request and answers what `reply` says. */
export async function startFakeBroker(reply: (request: RecordedRequest) => CannedReply): Promise<FakeBroker> {
  const requests: RecordedRequest[] = [];
  const server = createHttpServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
    incoming.on('end', () => {
      const recorded = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body,
      };
      requests.push(recorded);
      const answer = reply(recorded);
      outgoing.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' });
      outgoing.end(answer.body ?? '');
    });
  });
  const port = await listen(server);
  return { port, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface SilentServer {
  port: number;
  close(): Promise<void>;
}

/** Accepts connections and never answers: what a hung broker looks like to a client. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/** The free loopback port the system gave: tests use only ports they chose, never 47821. */
function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
