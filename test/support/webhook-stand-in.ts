import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server standing in for a chat service's incoming webhook: it checks each request as the
 * service would (`check` returns what is wrong, the service's 400), records the accepted ones, and
 * answers a queued failure first when a test asks for one (a 429 with Retry-After, a 404).
 */

export interface WebhookRequest {
  method: string;
  /** Path and query, as the service got them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookStandIn {
  port: number;
  /** Every request, accepted or not. */
  requests: WebhookRequest[];
  /** The parsed bodies the service accepted. */
  accepted: unknown[];
  /** Answers the next request with this, before any check. */
  failNext(reply: Reply): void;
  /** Resolves with the next accepted body (or one accepted already after `seen` bodies). */
  nextAccepted(seen?: number): Promise<unknown>;
  close(): Promise<void>;
}

export async function startWebhookStandIn(options: {
  check(request: WebhookRequest, body: unknown): string | undefined;
  accept(body: unknown): Reply;
}): Promise<WebhookStandIn> {
  const requests: WebhookRequest[] = [];
  const accepted: unknown[] = [];
  const failures: Reply[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: WebhookRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(request);
      const reply = failures.shift() ?? judge(request);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  function judge(request: WebhookRequest): Reply {
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return { status: 400, body: '{"error":"the body is not JSON"}' };
    }
    const problem = options.check(request, body);
    if (problem !== undefined) return { status: 400, body: JSON.stringify({ error: problem }) };
    accepted.push(body);
    for (const wake of waiters.splice(0)) wake();
    return options.accept(body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    accepted,
    failNext: (reply) => failures.push(reply),
    async nextAccepted(seen = accepted.length) {
      while (accepted.length <= seen) await new Promise<void>((resolve) => waiters.push(resolve));
      return accepted[seen];
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A tiny reader for the checks: the value at a path, or undefined. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}
