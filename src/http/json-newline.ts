import type { FastifyInstance } from 'fastify';

/**
 * Every JSON answer ends with a newline, so `curl` output does not run into the shell prompt. An
 * onSend hook sees the serialized text whichever serializer made it (the default one, or one compiled
 * from a route's response schema).
 */
export function endJsonWithNewline(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload === 'string' && payload !== '' && isJson(reply.getHeader('content-type'))) {
      return done(null, `${payload}\n`);
    }
    done(null, payload);
  });
}

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}
