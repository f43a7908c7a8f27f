import type { FastifyRequest } from 'fastify';

/** What the transport needs of the broker's sessions. */
export interface PageSessions {
  /** The live session of this secret, if any; looked up by the secret's hash, never by the secret. */
  authenticate(secret: string): { id: string } | undefined;
}

/** The session a request came with, once the guard accepted it. */
export interface RequestSession {
  id: string;
  secret: string;
}

const signedIn = new WeakMap<FastifyRequest, RequestSession>();

export function webSessionOf(request: FastifyRequest): RequestSession | undefined {
  return signedIn.get(request);
}

/**
 * The secret of `Authorization: Session <secret>`; the scheme is case-insensitive (RFC 9110). Only the
 * page's own script sends it, from storage of its own origin: unlike a cookie, a browser never adds
 * it to a request another page makes (issue 29), so neither a CSRF token nor an Origin check is needed.
 */
export function sessionSecret(request: FastifyRequest): string | undefined {
  return /^Session\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Signs a request in by the session it names; false when that is no live session. */
export function sessionSignIn(sessions: PageSessions, request: FastifyRequest, secret: string): boolean {
  const session = sessions.authenticate(secret);
  if (session === undefined) return false;
  signedIn.set(request, { id: session.id, secret });
  return true;
}
