import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChangeStream } from '../broker/change-stream.js';
import { InvalidRequestError } from '../domain/errors.js';
import { sendError } from './errors.js';
import { frameOf, StreamBatches } from './stream-batches.js';
import { webSessionOf } from './web-session-auth.js';
import { ERROR, type RouteSchema } from './schema-kit.js';

export interface StreamDeps {
  changes: ChangeStream;
  /** At most this many open streams; one more is answered 503. */
  maxSubscribers: number;
  /** A stream whose unsent output passes this many bytes belongs to a consumer too slow to keep. */
  maxBufferedBytes: number;
  /** Keep-alive comment interval unless the client asks for another with `?heartbeat=<seconds>`. */
  heartbeatMs: number;
  /** Whether the web page session with this secret is still live (not revoked, not ended). */
  sessionLive?: (secret: string) => boolean;
}

/** GET /v1/stream for the OpenAPI document; the events themselves are described in docs/api.md. */
export const STREAM_SCHEMAS = {
  open: {
    summary: 'Follow every change as Server-Sent Events (Last-Event-ID resumes)',
    querystring: {
      type: 'object',
      properties: {
        heartbeat: { type: 'integer', minimum: 1, maximum: 300, description: 'seconds' },
        batch: {
          type: 'integer',
          minimum: 1,
          maximum: 5000,
          description: 'milliseconds: changes that follow one another this closely are sent together',
        },
      },
    },
    response: {
      200: {
        type: 'string',
        contentMediaType: 'text/event-stream',
        description:
          'events notification.created, .updated, .answered, .resolved, .dismissed, .reopened and reset',
      },
      400: ERROR,
      503: ERROR,
    },
  },
} satisfies Record<string, RouteSchema>;

type StreamRequest = FastifyRequest<{ Querystring: Record<string, string | string[] | undefined> }>;

const RESET = 'event: reset\ndata: {"reason":"events were missed; list the notifications again"}\n\n';

/**
 * GET /v1/stream: Server-Sent Events of every committed change (docs/api.md "Event stream"). A client
 * that reconnects with Last-Event-ID gets what it missed, or a `reset` event when that is gone. A
 * consumer that does not read is dropped rather than buffered without limit.
 */
export function streamHandlers(deps: StreamDeps) {
  return {
    open: async (request: StreamRequest, reply: FastifyReply) => {
      if (deps.changes.subscriberCount >= deps.maxSubscribers) {
        reply.header('retry-after', '5');
        return sendError(
          request,
          reply,
          503,
          `too many open event streams (${deps.maxSubscribers}); close one and try again`,
        );
      }
      const heartbeatMs = heartbeatOf(request.query['heartbeat']) ?? deps.heartbeatMs;
      const batchMs = batchOf(request.query['batch']);
      const lastEventId = request.headers['last-event-id'];
      const resumption =
        typeof lastEventId === 'string' && lastEventId !== '' ? deps.changes.since(lastEventId) : undefined;

      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      // A stream opened by the web page ends with its session: revoked, ended by a new token, expired.
      const session = webSessionOf(request);
      const live = session && deps.sessionLive ? () => deps.sessionLive!(session.secret) : () => true;
      const write = (text: string) => {
        if (response.writableEnded) return;
        if (!live()) return void response.end();
        response.write(text);
        if (response.writableLength > deps.maxBufferedBytes) response.destroy();
      };
      write('retry: 2000\n\n');
      if (resumption?.kind === 'reset') write(RESET);
      else resumption?.events.forEach((event) => write(frameOf(event)));

      const batches = batchMs === undefined ? undefined : new StreamBatches(batchMs, write);
      // The broker's stop ends the stream: it is never idle, so the server would wait for it forever.
      const unsubscribe = deps.changes.subscribe(
        batches ? (event) => batches.add(event) : (event) => write(frameOf(event)),
        () => response.end(),
      );
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      response.once('close', () => {
        clearInterval(heartbeat);
        batches?.close();
        unsubscribe();
      });
    },
  };
}

/** `?heartbeat=<seconds>`, 1 to 300. */
function heartbeatOf(value: string | string[] | undefined): number | undefined {
  const seconds = integerParameter(value, 'heartbeat', 300, 'seconds');
  return seconds === undefined ? undefined : seconds * 1000;
}

/** `?batch=<milliseconds>`, 1 to 5000. */
function batchOf(value: string | string[] | undefined): number | undefined {
  return integerParameter(value, 'batch', 5000, 'milliseconds');
}

function integerParameter(
  value: string | string[] | undefined,
  name: string,
  maximum: number,
  unit: string,
): number | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value[value.length - 1]! : value;
  const number = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(number >= 1 && number <= maximum))
    throw new InvalidRequestError(`${name} must be an integer from 1 to ${maximum} (${unit})`);
  return number;
}
