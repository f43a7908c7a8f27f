import { createServer, request, type IncomingMessage, type Server } from 'node:http';

/**
 * A small HTTP load balancer for the tests, as Caddy or nginx would be in front of several relay
 * processes: each request goes to the next backend in turn; one that refuses the connection (a killed
 * process) is skipped for the next. Bodies are read whole first so a request can be sent again;
 * responses (event streams too) are passed through as they come.
 */
export interface RoundRobinProxy {
  url: string;
  port: number;
  /** The backend port each request went to, in order. */
  readonly routed: number[];
  close(): Promise<void>;
}

function forward(
  ports: number[],
  start: number,
  incoming: IncomingMessage,
  body: Buffer,
  onResponse: (port: number, response: IncomingMessage) => void,
  onFail: () => void,
  tried = 0,
): void {
  if (tried === ports.length) return onFail();
  const port = ports[(start + tried) % ports.length]!;
  const upstream = request(
    { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (response) => onResponse(port, response),
  );
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNREFUSED') forward(ports, start, incoming, body, onResponse, onFail, tried + 1);
    else onFail();
  });
  upstream.end(body);
}

export async function startRoundRobinProxy(ports: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const routed: number[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const start = next++;
      forward(
        ports,
        start,
        incoming,
        Buffer.concat(chunks),
        (port, response) => {
          routed.push(port);
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
          // The backend died mid-response: the client sees its connection end, as behind a real proxy.
          response.on('error', () => outgoing.destroy());
          response.on('aborted', () => outgoing.destroy());
          outgoing.on('close', () => response.destroy());
        },
        () => {
          if (!outgoing.headersSent) outgoing.writeHead(502).end();
          else outgoing.destroy();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    routed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
