import { request, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BrokerTimeoutError, BrokerUnreachableError } from './errors.js';

export interface RawRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /**
   * Runs once the connection is up and before a single byte (headers, token, body) is written; a
   * throw ends the exchange with that error and nothing sent.
   */
  beforeSend?: (socket: Socket) => void;
}

export interface RawResponse {
  status: number;
  statusText: string;
  body: string;
}

/**
 * One HTTP exchange over node:http, which loads far faster than the undici behind global fetch; the
 * client runs on every agent's hot path. The timeout covers the whole exchange, not just idle gaps.
 */
export function sendRequest(raw: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...raw.headers };
    if (raw.body !== undefined) headers['content-length'] = String(Buffer.byteLength(raw.body));
    let timedOut = false;
    let refusal: Error | undefined;
    const outgoing = request(raw.url, { method: raw.method, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        clearTimeout(timer);
        const status = incoming.statusCode ?? 0;
        resolve({
          status,
          statusText: incoming.statusMessage || STATUS_CODES[status] || '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      incoming.on('error', fail);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy();
    }, raw.timeoutMs);
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(
        refusal ??
          (timedOut
            ? new BrokerTimeoutError('the request timed out')
            : new BrokerUnreachableError(raw.url.origin, error.message)),
      );
    }
    outgoing.on('error', fail);
    // node:http writes the request head only at the first write or end(), so holding end() back until
    // the check has passed keeps the token off the wire.
    outgoing.once('socket', (socket: Socket) => {
      const send = () => {
        try {
          raw.beforeSend?.(socket);
        } catch (error) {
          refusal = error as Error;
          outgoing.destroy(refusal);
          return;
        }
        outgoing.end(raw.body);
      };
      if (socket.connecting) socket.once('connect', send);
      else send();
    });
  });
}
