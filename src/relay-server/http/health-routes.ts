/** For a load balancer: /healthz (the process answers) and /readyz (it can serve: store reachable, schema current). */
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.js';

export function registerHealthRoutes(app: FastifyInstance, context: RouteContext): void {
  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get('/readyz', async (_request, reply) => {
    const ready = !context.stopping && (await context.ready().catch(() => false));
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : context.stopping ? 'stopping' : 'unavailable' });
  });
}
