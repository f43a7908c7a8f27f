import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The statuses a request Node's parser refused is answered with. */
export type MalformedStatus = 400 | 408 | 431;

export interface MalformedRequestAnswers {
  /** The answer's own headers (beside its length and `Connection: close`) and body, in the server's shape. */
  answer(status: MalformedStatus): { headers: Record<string, string>; body: string };
  /** Told of each refusal, with Node's error code (no part of the request). */
  refused?(status: MalformedStatus, code: string): void;
}

/**
 * Requests Node's HTTP parser refuses (bad framing, bogus Content-Length, oversized headers, too slow)
 * never reach fastify; they are answered here in the server's own shape and the connection is closed.
 * When the refused bytes follow a complete request that is still being answered (a body longer than its
 * Content-Length), that request keeps its own answer and the connection closes after it: a 400 written
 * first would tell the client its request was refused although it was carried out. notifyd and
 * notify-relay both use it, each with its error shape and headers.
 */
export function malformedRequests(answers: MalformedRequestAnswers) {
  const answering = new WeakMap<Socket, { request: IncomingMessage; response: ServerResponse }>();
  const closeWhenAnswered = new WeakSet<Socket>();
  return {
    track(server: Server): void {
      // An Expect other than 100-continue is ignored (RFC 9110 allows it) instead of Node's bare 417.
      server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
        server.emit('request', request, response),
      );
      server.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const socket = request.socket;
        answering.set(socket, { request, response });
        response.once('close', () => {
          if (answering.get(socket)?.response !== response) return;
          answering.delete(socket);
          if (closeWhenAnswered.has(socket)) socket.end();
        });
      });
    },
    answer(error: Error & { code?: string }, socket: Socket): void {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status: MalformedStatus =
        error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      answers.refused?.(status, error.code ?? 'unknown');
      const current = answering.get(socket);
      if (current?.request.complete) {
        closeWhenAnswered.add(socket);
        return;
      }
      // Only when no response has started on the wire: otherwise an answer would corrupt it.
      if (socket.writable && !current?.response.headersSent) {
        const { headers, body } = answers.answer(status);
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  };
}
