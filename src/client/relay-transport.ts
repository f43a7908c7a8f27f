import { lookup } from 'node:dns/promises';
import { request as httpRequest, STATUS_CODES, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';

/**
 * How `notify relay` talks to a relay (docs/relay-protocol.md), the one client path that leaves the
 * machine. It never carries the broker's token: only the broker's own transport (transport.ts) does.
 * The host is resolved once, the caller checks the addresses against the URL rules, and every request
 * connects to exactly those addresses, so a DNS answer that changes between the check and the
 * connection (DNS rebinding) cannot redirect it. Redirects are not followed.
 */

export interface RelayExchange {
  method: 'GET' | 'POST';
  url: URL;
  /** The checked addresses of url's host (its IP literal when it has no name). */
  addresses: readonly string[];
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Ends the exchange at once (Ctrl+C); it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface RelayReply {
  status: number;
  statusText: string;
  /** The body parsed as JSON; undefined when it was empty or not JSON. */
  json: unknown;
  retryAfter?: string;
}

/** No connection, a broken one, or no answer in time: worth another try. */
export class RelayNetworkError extends Error {
  override name = 'RelayNetworkError';
  constructor(
    readonly origin: string,
    reason: string,
    readonly timedOut = false,
  ) {
    super(reason);
  }
}

const MAX_BODY_BYTES = 64 * 1024;

/** Every address of `host`, IPv4 and IPv6, as the system resolver gives them. */
export async function resolveRelayHost(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return [...new Set(found.map((entry) => entry.address))];
}

export function relayExchange(exchange: RelayExchange): Promise<RelayReply> {
  const { url } = exchange;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { accept: 'application/json', ...exchange.headers };
  if (exchange.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(exchange.body));
  }
  return new Promise((resolve, reject) => {
    // Cancelled already (Ctrl+C between two requests): open no connection at all.
    if (exchange.signal?.aborted) return reject(exchange.signal.reason as Error);
    let timedOut = false;
    const outgoing = send(
      url,
      { method: exchange.method, headers, agent: false, lookup: pinnedLookup(exchange.addresses) },
      (incoming) => readReply(incoming, url.origin).then(finish, fail),
    );
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy();
    }, exchange.timeoutMs);
    const abort = () => {
      clearTimeout(timer);
      outgoing.destroy();
      reject(exchange.signal?.reason as Error);
    };
    exchange.signal?.addEventListener('abort', abort, { once: true });
    outgoing.on('close', () => exchange.signal?.removeEventListener('abort', abort));
    outgoing.on('error', (error) => fail(error));
    outgoing.end(exchange.body);
    function finish(reply: RelayReply): void {
      clearTimeout(timer);
      resolve(reply);
    }
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(
        timedOut
          ? new RelayNetworkError(url.origin, 'no answer before the time-out', true)
          : new RelayNetworkError(url.origin, error.message),
      );
    }
  });
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A resolver that answers with the checked addresses only. */
function pinnedLookup(addresses: readonly string[]) {
  const entries: LookupAddress[] = addresses.map((address) => ({
    address,
    family: address.includes(':') ? 6 : 4,
  }));
  return (_host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (entries.length === 0) return callback(new Error('no checked address'), '', 4);
    if (options.all) return callback(null, entries);
    callback(null, entries[0]!.address, entries[0]!.family);
  };
}

function readReply(incoming: IncomingMessage, origin: string): Promise<RelayReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        incoming.destroy(new Error('the answer is larger than 64 KiB'));
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('error', (error) => reject(new RelayNetworkError(origin, error.message)));
    incoming.on('end', () => {
      const status = incoming.statusCode ?? 0;
      const retryAfter = incoming.headers['retry-after'];
      resolve({
        status,
        statusText: incoming.statusMessage || STATUS_CODES[status] || '',
        json: parseJson(Buffer.concat(chunks).toString('utf8')),
        ...(typeof retryAfter === 'string' && { retryAfter }),
      });
    });
  });
}

/** An empty body is not JSON either: JSON.parse refuses it like any other. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
