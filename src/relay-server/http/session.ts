import type { FastifyRequest } from 'fastify';
import type { User } from '../store.js';
import type { RouteContext } from './context.js';
import { cookie, SESSION_COOKIE } from './security.js';

export function sessionToken(request: FastifyRequest): string | undefined {
  const token = cookie(request, SESSION_COOKIE);
  return token && /^nrs_[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined;
}

export async function signedInUser(
  context: RouteContext,
  request: FastifyRequest,
): Promise<User | undefined> {
  const token = sessionToken(request);
  return token === undefined ? undefined : context.relay.sessionUser(token);
}
