import { request, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { BrokerTimeoutError, BrokerUnreachableError, ForwardClosedError } from './errors.js';
import { assertOwnListener } from './listener-owner.js';
import { assertOwnSocket } from './socket-owner.js';

/**
 * The only way a client (notify, notifyctl, the hook adapter, the MCP server) talks to the broker.
 * Every exchange checks who accepted the connection before a single byte (headers, token, body) is
 * written, so no caller can forget it: another local user may hold the port while the broker is down.
 */

/** Where the broker is: its port's base URL, or its Unix socket (which then wins). */
export interface BrokerAddress {
  /** e.g. http://127.0.0.1:47821 */
  baseUrl: string;
  /** NOTIFY_SOCKET or config `socket`: talk over this Unix socket instead of the port. */
  socketPath?: string;
  /** The socket is an SSH forward the desk opens with `ssh <forwardName>` (config `forwardName`). */
  forwardName?: string;
}

/** The socket fields of a request to `address`, present only when set. */
export function socketOf(
  address: Omit<BrokerAddress, 'baseUrl'>,
): Pick<RawRequest, 'socketPath' | 'forwardName'> {
  return {
    ...(address.socketPath !== undefined && { socketPath: address.socketPath }),
    ...(address.forwardName !== undefined && { forwardName: address.forwardName }),
  };
}

export interface RawRequest {
  method: string;
  /** With `socketPath`, only its path and query count (the host is `localhost`). */
  url: URL;
  /** The broker's Unix socket to talk over instead of the URL's port (NOTIFY_SOCKET, config `socket`). */
  socketPath?: string;
  /** The socket is an SSH forward to the desk, opened by `ssh <forwardName>` there (docs/remote.md). */
  forwardName?: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
}

export interface RawResponse {
  status: number;
  statusText: string;
  body: string;
}

/**
 * One HTTP exchange over node:http, which loads far faster than the undici behind global fetch; the
 * client runs on every agent's hot path. The timeout covers the whole exchange, not just idle gaps.
 * Rejects with ForeignListenerError (nothing sent), BrokerUnreachableError or BrokerTimeoutError.
 */
export function sendRequest(raw: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const exchange = startExchange(raw, {
      onResponse(incoming) {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          clearTimeout(timer);
          resolve({ ...statusLine(incoming), body: Buffer.concat(chunks).toString('utf8') });
        });
        incoming.on('error', (error) => fail(unreachable(raw, error)));
      },
      onFailure: fail,
    });
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.abort();
    }, raw.timeoutMs);
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(timedOut ? new BrokerTimeoutError('the request timed out') : error);
    }
  });
}

export type StreamRequest = Omit<RawRequest, 'timeoutMs'>;

export interface StreamingHandlers {
  /** The status line arrived; the body follows through onText. */
  onResponse(status: number, statusText: string): void;
  /** Each piece of the body as UTF-8 text, in order. */
  onText(text: string): void;
}

export interface StreamingExchange {
  /**
   * Resolves when the body ends or close() was called; rejects with ForeignListenerError (nothing
   * sent) or BrokerUnreachableError (no connection, or it broke).
   */
  ended: Promise<void>;
  close(): void;
}

/** A long-lived exchange with the same owner check; no timeout, since a stream may stay quiet for hours. */
export function openStreamingRequest(raw: StreamRequest, handlers: StreamingHandlers): StreamingExchange {
  let close = () => {};
  // Settled once: after close() has resolved it, the error of the aborted connection changes nothing.
  const ended = new Promise<void>((resolve, reject) => {
    const exchange = startExchange(raw, {
      onResponse(incoming) {
        const { status, statusText } = statusLine(incoming);
        handlers.onResponse(status, statusText);
        incoming.setEncoding('utf8');
        incoming.on('data', handlers.onText);
        incoming.on('end', () => resolve());
        incoming.on('error', (error) => reject(unreachable(raw, error)));
      },
      onFailure: reject,
    });
    close = () => {
      exchange.abort();
      resolve();
    };
  });
  return { ended, close: () => close() };
}

interface ExchangeEvents {
  onResponse(incoming: IncomingMessage): void;
  /** ForeignListenerError when the check refused the listener, else BrokerUnreachableError. */
  onFailure(error: Error): void;
}

/**
 * Opens the connection, checks its listener, and only then writes the request: node:http sends the
 * request head at the first write or end(), so holding end() back keeps the token off the wire.
 */
function startExchange(raw: StreamRequest, events: ExchangeEvents): { abort(): void } {
  const headers = { ...raw.headers };
  if (raw.body !== undefined) headers['content-length'] = String(Buffer.byteLength(raw.body));
  if (raw.socketPath !== undefined) return startSocketExchange(raw, headers, events);
  let refusal: Error | undefined;
  const outgoing = request(raw.url, { method: raw.method, headers, agent: false }, events.onResponse);
  outgoing.on('error', (error) => events.onFailure(refusal ?? unreachable(raw, error)));
  outgoing.once('socket', (socket: Socket) => {
    const send = () => {
      try {
        assertOwnListener(socket, raw.url.origin);
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
  return { abort: () => outgoing.destroy() };
}

/** Over the Unix socket: its file is checked before connecting, so a refused one never gets a byte. */
function startSocketExchange(
  raw: StreamRequest,
  headers: Record<string, string>,
  events: ExchangeEvents,
): { abort(): void } {
  const socketPath = raw.socketPath!;
  try {
    assertOwnSocket(socketPath);
  } catch (error) {
    const failure = error instanceof BrokerUnreachableError ? unreachable(raw, error) : (error as Error);
    queueMicrotask(() => events.onFailure(failure));
    return { abort: () => {} };
  }
  const path = `${raw.url.pathname}${raw.url.search}`;
  const outgoing = request(
    { socketPath, path, method: raw.method, headers: { host: 'localhost', ...headers }, agent: false },
    events.onResponse,
  );
  outgoing.on('error', (error) => events.onFailure(unreachable(raw, error)));
  outgoing.end(raw.body);
  return { abort: () => outgoing.destroy() };
}

function statusLine(incoming: IncomingMessage): { status: number; statusText: string } {
  const status = incoming.statusCode ?? 0;
  return { status, statusText: incoming.statusMessage || STATUS_CODES[status] || '' };
}

function unreachable(raw: StreamRequest, error: Error): BrokerUnreachableError {
  if (raw.socketPath === undefined) return new BrokerUnreachableError(raw.url.origin, error.message);
  return raw.forwardName === undefined
    ? new BrokerUnreachableError(raw.socketPath, error.message)
    : new ForwardClosedError(raw.socketPath, error.message, raw.forwardName);
}
