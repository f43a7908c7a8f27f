import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A real local HTTP server that records every request and answers as the current mode says; given a
 * key and certificate, it speaks HTTPS instead.
 */

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** `hang` reads the request and never answers, so the sender's time-out decides. */
export type Answer = Reply | 'hang';

export interface HttpReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers every following request with this (or a function of the request). */
  answer(answer: Answer | ((request: ReceivedRequest) => Answer)): void;
  close(): Promise<void>;
}

export interface ReceiverTls {
  key: Buffer;
  cert: Buffer;
}

export async function startHttpReceiver(
  initial: Answer = { status: 200 },
  tls?: ReceiverTls,
): Promise<HttpReceiver> {
  let current: Answer | ((request: ReceivedRequest) => Answer) = initial;
  const requests: ReceivedRequest[] = [];
  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const answer = typeof current === 'function' ? current(received) : current;
      if (answer === 'hang') return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  };
  const server: Server = tls === undefined ? createServer(listener) : createHttpsServer(tls, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    port,
    requests,
    answer(answer) {
      current = answer;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
