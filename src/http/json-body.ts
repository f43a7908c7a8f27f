import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { parseStorableJson } from '../domain/json-values.js';

/** A body of whitespace is no body; anything else must be JSON that can be stored as sent. */
export function parseJsonBody(chunks: Buffer[]): unknown {
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  return parseStorableJson(text);
}

export const bodyTooLarge = () => Object.assign(new Error('request body too large'), { statusCode: 413 });

/** The client went away mid-body (reset, or the connection ended early): its fault, not a 500. */
export const bodyEndedEarly = () =>
  Object.assign(new Error('request body ended before it was complete'), { statusCode: 400 });

/**
 * Parses every request body as JSON whatever its Content-Type (curl -d sends a form type), and
 * enforces the body limit of the moment while streaming, so chunked bodies are bounded too. Values that
 * parse but cannot be stored as sent (a lone surrogate, a number beyond a double) are refused here, for
 * every route. A route with a rawBodyLimit (a sound import) gets the bytes as a Buffer, bounded by that
 * limit instead.
 */
export function installJsonBodyParser(app: FastifyInstance, limit: () => number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload: IncomingMessage, done) => {
    const rawLimit = request.routeOptions.config.rawBodyLimit;
    const max = rawLimit ?? limit();
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: unknown) => {
      if (finished) return;
      finished = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        payload.removeAllListeners('data');
        payload.resume();
        return finish(bodyTooLarge());
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (rawLimit !== undefined) return finish(null, Buffer.concat(chunks));
      let body: unknown;
      try {
        body = parseJsonBody(chunks);
      } catch (error) {
        return finish(error as Error);
      }
      finish(null, body);
    });
    payload.on('error', () => finish(bodyEndedEarly()));
  });
}
