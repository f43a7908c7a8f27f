import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** A real local HTTP receiver that records every POST and answers as the test says. */
export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  answer: (request: ReceivedRequest) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 }),
): Promise<Receiver> {
  const receiver = { received: [] as ReceivedRequest[], answer } as Receiver;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const received: ReceivedRequest = {
        headers: request.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        at: Date.now(),
      };
      receiver.received.push(received);
      const reply = receiver.answer(received);
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(reply.status, reply.headers ?? {});
        response.end();
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
