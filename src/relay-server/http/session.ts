import type { FastifyRequest } from 'fastify';
import type { User } from '../store.js';
import type { RouteContext } from './context.js';
import { cookie, SESSION_COOKIE } from './security.js';

// No shape check: a value that is no session token matches no stored session's hash, so the
// lookup refuses it; an empty cookie is no session at all.
export function sessionToken(request: FastifyRequest): string | undefined {
  return cookie(request, SESSION_COOKIE) || undefined;
}

export async function signedInUser(
  context: RouteContext,
  request: FastifyRequest,
): Promise<User | undefined> {
  const token = sessionToken(request);
  return token === undefined ? undefined : context.relay.sessionUser(token);
}
