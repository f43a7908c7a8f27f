import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from './context.js';
import { securityHeaders } from './security.js';

export interface EventStream {
  send(event: { id?: number; type: string; data: string }): void;
  /** Runs once when the stream ends, whoever ends it. */
  onEnd(cleanup: () => void): void;
  end(): void;
}

export const RECONNECT_AFTER_STOP_MS = 1000;

/** Takes the response over for a text/event-stream with keep-alive comments, ended on shutdown too. */
export function openEventStream(
  context: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
): EventStream {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    ...securityHeaders(request),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  response.write('retry: 5000\n\n');
  const cleanups: (() => void)[] = [];
  let ended = false;
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), context.keepAliveMs);
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    context.streams.delete(shutDown);
    for (const cleanup of cleanups) cleanup();
    response.end();
  };
  // The relay stopping: the client is told to come back in a second (to another process, behind a
  // balancer), and resumes from its Last-Event-ID there.
  const shutDown = (): void => {
    if (!ended) response.write(`retry: ${RECONNECT_AFTER_STOP_MS}\n\n`);
    end();
  };
  context.streams.add(shutDown);
  request.raw.once('close', end);
  response.once('error', end);
  return {
    send(event) {
      if (ended) return;
      const id = event.id === undefined ? '' : `id: ${event.id}\n`;
      response.write(`${id}event: ${event.type}\ndata: ${event.data}\n\n`);
    },
    onEnd(cleanup) {
      cleanups.push(cleanup);
    },
    end,
  };
}
