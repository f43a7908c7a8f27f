import type { FastifyRequest } from 'fastify';
import { ERROR, object, str, type RouteSchema } from './schema-kit.js';

export const HEALTH_SCHEMAS = {
  open: {
    summary: 'Liveness, without authentication',
    response: { 200: object({ status: { const: 'ok' } }, ['status']) },
  },
  detailed: {
    summary: 'The spec HealthResponse',
    response: {
      200: object(
        {
          status: { const: 'ok' },
          version: str(),
          pid: { type: 'integer' },
          uptimeSeconds: { type: 'number' },
          activeCount: { type: 'integer' },
          apiVersion: { const: 'v1' },
          serverTimeUtc: str({ format: 'date-time' }),
        },
        ['status', 'version', 'pid', 'uptimeSeconds', 'activeCount', 'apiVersion', 'serverTimeUtc'],
      ),
      401: ERROR,
    },
  },
} satisfies Record<string, RouteSchema>;

export interface HealthDeps {
  version: string;
  startedAt: number;
  clock: () => number;
  activeCount: () => number;
}

export function healthHandlers(deps: HealthDeps) {
  return {
    open: async () => ({ status: 'ok' }),
    detailed: async (_request: FastifyRequest) => {
      const now = deps.clock();
      return {
        status: 'ok',
        version: deps.version,
        pid: process.pid,
        uptimeSeconds: Math.max(0, (now - deps.startedAt) / 1000),
        activeCount: deps.activeCount(),
        apiVersion: 'v1',
        serverTimeUtc: new Date(now).toISOString(),
      };
    },
  };
}
