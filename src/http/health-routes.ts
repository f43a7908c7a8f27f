import type { FastifyRequest } from 'fastify';

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
