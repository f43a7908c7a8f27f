import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

/** The web page's session cookie (issue 21). */
export const SESSION_COOKIE = 'notify_session';

/** What the transport needs of the broker's sessions. */
export interface CookieSessions {
  /** The live session of this cookie value, if any. */
  authenticate(secret: string): { id: string } | undefined;
  csrfTokenOf(secret: string): string;
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

/** The value of the session cookie, if the request carries one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Reads that change nothing; every other method from a cookie needs the CSRF token and the Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Signs a request in by its session cookie. 'absent' when it carries no live session; the reply when
 * a state-changing request from a session lacks its CSRF token or comes from another origin (403).
 * A cross-site form or script cannot set X-CSRF-Token, and its Origin names its own site.
 */
export function cookieSignIn(
  sessions: CookieSessions,
  request: FastifyRequest,
  reply: FastifyReply,
): 'signed-in' | 'absent' | FastifyReply {
  const secret = sessionCookie(request);
  const session = secret === undefined ? undefined : sessions.authenticate(secret);
  if (secret === undefined || session === undefined) return 'absent';
  if (!SAFE_METHODS.has(request.method)) {
    const origin = `http://${request.headers.host?.toLowerCase() ?? ''}`;
    if (request.headers.origin !== origin) {
      return sendError(
        request,
        reply,
        403,
        `a request signed in with the web page's session must come from the page itself: its Origin header must be ${origin}`,
        'web session: foreign or missing Origin',
      );
    }
    const supplied = request.headers['x-csrf-token'];
    if (
      typeof supplied !== 'string' ||
      !timingSafeEqual(sha256(supplied), sha256(sessions.csrfTokenOf(secret)))
    ) {
      return sendError(
        request,
        reply,
        403,
        "a request signed in with the web page's session needs the X-CSRF-Token header with the csrfToken of GET /v1/web/session",
        'web session: missing or wrong CSRF token',
      );
    }
  }
  signedIn.set(request, { id: session.id, secret });
  return 'signed-in';
}
