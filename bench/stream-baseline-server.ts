/**
 * The baseline of the stream benchmark: a bare node:http server doing the least work an event stream
 * can do: `GET /stream` keeps the response open, `POST /publish` writes its body as one SSE event to
 * every open stream and answers 201. Run as its own process, like notifyd:
 *
 *   node dist/bench/stream-baseline-server.js
 *
 * prints `baseline listening on <port>` once it listens on a free loopback port.
 */
import { createServer, type ServerResponse } from 'node:http';

const streams = new Set<ServerResponse>();
let sequence = 0;

const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('retry: 2000\n\n');
    streams.add(response);
    response.once('close', () => streams.delete(response));
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const frame = `id: ${++sequence}\nevent: notification.created\ndata: ${body}\n\n`;
    for (const stream of streams) stream.write(frame);
    response.writeHead(201, { 'content-type': 'application/json' }).end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`baseline listening on ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => process.exit(0));
