import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { assertStorableJson } from '../domain/json-values.js';

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
        return finish(Object.assign(new Error('request body too large'), { statusCode: 413 }));
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (rawLimit !== undefined) return finish(null, Buffer.concat(chunks));
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return finish(null, undefined);
      try {
        const body: unknown = JSON.parse(text);
        assertStorableJson(body);
        finish(null, body);
      } catch (error) {
        finish(error as Error);
      }
    });
    // The client went away mid-body (reset, or the connection ended early): its fault, not a 500.
    payload.on('error', () =>
      finish(Object.assign(new Error('request body ended before it was complete'), { statusCode: 400 })),
    );
  });
}
