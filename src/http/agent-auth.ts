import type { FastifyRequest } from 'fastify';
import { AGENT_TOKEN_REFUSAL } from '../domain/agent-token.js';
import { sendError } from './errors.js';
import type { Guard } from './guard.js';

/** What the transport needs of the agent tokens. */
export interface AgentTokenCheck {
  /** The name of the live agent token this is, if it is one. */
  authenticate(token: string): string | undefined;
}

const agents = new WeakMap<FastifyRequest, string>();

/** The agent token's name a request came with, once the bearer guard accepted it; else undefined. */
export function agentOf(request: FastifyRequest): string | undefined {
  return agents.get(request);
}

export function signInAgent(request: FastifyRequest, name: string): void {
  agents.set(request, name);
}

/**
 * After the token check: an agent token reaches only the routes marked for agents, and on a route
 * about one notification (`own`) only a notification it raised. A notification that does not exist
 * goes on to the handler's 404.
 */
export function agentScopeGuard(raisedByOf: (id: string) => string | null | undefined): Guard {
  return (request, reply) => {
    const name = agentOf(request);
    if (name === undefined) return undefined;
    // Every request that reaches the guards has route options, a refused URL's (bad percent-encoding) too.
    const scope = request.routeOptions.config.agent;
    if (scope === 'any') return undefined;
    if (scope === 'own') {
      // Only routes with an :id are marked `own` (route-table.ts).
      const owner = raisedByOf((request.params as { id: string }).id);
      if (owner === undefined || owner === name) return undefined;
    }
    return sendError(request, reply, 403, AGENT_TOKEN_REFUSAL);
  };
}
