import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FailedRequestLog } from '../log/failed-requests.js';

/**
 * Requests Node's HTTP parser refuses (bad framing, bogus Content-Length, oversized headers) never reach
 * fastify; they are answered here with the spec's `{"error"}` shape and the connection is closed.
 * When the refused bytes follow a complete request that is still being answered (a body longer than its
 * Content-Length), that request keeps its own answer and the connection closes after it: a 400 written
 * first would tell the client its request was refused although it was carried out.
 */
export function malformedRequests(failures: FailedRequestLog) {
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
      const [status, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'request headers are too large']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request timed out']
            : [400, 'malformed HTTP request'];
      failures.record(status, `refused a malformed HTTP request: ${status} ${error.code ?? 'unknown'}`);
      const current = answering.get(socket);
      if (current?.request.complete) {
        closeWhenAnswered.add(socket);
        return;
      }
      // Only when no response has started on the wire: otherwise an answer would corrupt it.
      if (socket.writable && !current?.response.headersSent) {
        const body = `${JSON.stringify({ error: message })}\n`;
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  };
}
