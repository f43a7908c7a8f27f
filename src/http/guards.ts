import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { signInAgent, type AgentTokenCheck } from './agent-auth.js';
import { sendError } from './errors.js';
import type { Guard } from './guard.js';
import { cameOverUnixSocket } from './unix-listener.js';
import { sessionSecret, sessionSignIn, webSessionOf, type PageSessions } from './web-session-auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Needs `Authorization: Bearer <authToken>`; unset (an unknown path) means: needed under /v1/. */
    auth?: boolean;
    /** Only this credential is accepted (default: the bearer token or the web page's session). */
    credentials?: 'token' | 'session';
    /** Counts against the POST rate limit of the token. */
    rateLimited?: boolean;
    /** What an agent token may do here: anything (`any`), only on its own notification (`own`); unset: nothing. */
    agent?: 'any' | 'own' | undefined;
    /** The body is kept as raw bytes, up to this size instead of maxRequestBodyBytes (sound imports). */
    rawBodyLimit?: number | undefined;
  }
}

/**
 * DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host header. No
 * browser can open a Unix socket, so a request over the broker's socket has no such page behind it
 * and may name any host (clients there send `localhost`).
 */
export function hostGuard(port: () => number): Guard {
  const allowed = hostAllowed(port);
  return (request, reply) => {
    if (cameOverUnixSocket(request)) return undefined;
    if (allowed(request.headers.host)) return undefined;
    return sendError(
      request,
      reply,
      421,
      `Host header must be 127.0.0.1:${port()}, localhost:${port()} or [::1]:${port()}; other hosts are refused to prevent DNS rebinding`,
    );
  };
}

/** Whether a Host header names the broker's own loopback address and port. */
export function hostAllowed(port: () => number): (host: string | undefined) => boolean {
  let allowedPort = -1;
  let allowed: string[] = [];
  return (header) => {
    const host = header?.toLowerCase();
    // Built again only when the port changes (a config reload), not on every request.
    if (port() !== allowedPort) {
      allowedPort = port();
      allowed = [`127.0.0.1:${allowedPort}`, `localhost:${allowedPort}`, `[::1]:${allowedPort}`];
    }
    return host !== undefined && allowed.includes(host);
  };
}

/** 413 before any work when the declared length is already too large. */
export function declaredLengthGuard(limit: () => number): Guard {
  return (request, reply) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > (request.routeOptions.config.rawBodyLimit ?? limit()))
      return sendError(request, reply, 413, 'request body too large');
    return undefined;
  };
}

/**
 * One-shot, as hex: a Hash object per request costs several times the digest itself, and the one-shot
 * digest handed out as a Buffer costs several times the hex text (Node 24, measured for issue 38). The
 * hex digits' bytes are what the fixed-time comparison compares.
 */
const sha256 = (value: string) => Buffer.from(hash('sha256', value), 'latin1');

/** The token of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110). */
export function bearerToken(request: FastifyRequest): string | undefined {
  return bearerTokenOf(request.headers.authorization);
}

export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/**
 * Whether a token is the owner's: both sides hashed to equal length, then compared in fixed time (spec
 * "Authentication" 3). The expected token's hash is kept until the token changes (a config reload).
 */
export function ownerTokenCheck(token: () => string): (supplied: string | undefined) => boolean {
  let hashedToken = '';
  let hashedExpected = sha256('');
  return (supplied) => {
    const expected = token();
    if (expected !== hashedToken) {
      hashedExpected = sha256(expected);
      hashedToken = expected;
    }
    return supplied !== undefined && expected !== '' && timingSafeEqual(sha256(supplied), hashedExpected);
  };
}

/** Spec "Authentication" 1: every /v1/* path, including ones that match no route. */
function needsAuth(request: FastifyRequest): boolean {
  // A request the router refused (bad percent-encoding) has no route options.
  return request.routeOptions?.config?.auth ?? request.url.startsWith('/v1/');
}

/** Node keeps only the first of repeated Authorization headers; the raw list shows them all. */
export function authorizationCount(raw: string[]): number {
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === 13 && raw[index]!.toLowerCase() === 'authorization') count++;
  }
  return count;
}

/**
 * The owner's token (ownerTokenCheck), or
 * `Authorization: Session <secret>` signs in with the web page's session instead (issues 21 and 29),
 * unless the route takes only the token; a session-only route takes nothing else. A Cookie header
 * counts for nothing: browsers send cookies to every port of the host. A 401 names the scheme it
 * wants (RFC 9110 section 11.6.1). An agent token (issue 33) passes here on every route and is
 * narrowed by the agent scope guard that follows.
 */
export function bearerGuard(
  token: () => string,
  sessions?: PageSessions,
  agentTokens?: AgentTokenCheck,
): Guard {
  const isOwner = ownerTokenCheck(token);
  return (request, reply) => {
    if (!needsAuth(request)) return undefined;
    // Taking the first of two would let whatever sits in front of the broker choose which one counts.
    if (authorizationCount(request.raw.rawHeaders) > 1) {
      return sendError(request, reply, 400, 'only one Authorization header is allowed');
    }
    const credentials = request.routeOptions?.config?.credentials;
    const secret = sessionSecret(request);
    if (secret !== undefined) {
      if (sessions && credentials !== 'token' && sessionSignIn(sessions, request, secret)) return undefined;
    } else {
      const supplied = bearerToken(request);
      if (credentials !== 'session') {
        if (isOwner(supplied)) return undefined;
      }
      // Whatever the route, a live agent token is known by name from here on: the agent scope guard
      // answers 403 where it may not go, which tells its holder more than a 401 would.
      const agent = supplied === undefined ? undefined : agentTokens?.authenticate(supplied);
      if (agent !== undefined) {
        signInAgent(request, agent);
        return undefined;
      }
    }
    reply.header('www-authenticate', credentials === 'session' ? 'Session' : 'Bearer');
    return sendError(request, reply, 401, 'unauthorized');
  };
}

/**
 * One counter per token in a fixed one-second window (spec "Limits", Rate), and one per web page
 * session. Runs after the bearer guard, so the token is the valid one however the header spells the
 * scheme and spaces.
 */
export function rateLimitGuard(
  perSecond: () => number,
  now: () => number,
  admit: RateLimiter = rateLimiter(perSecond, now),
): Guard {
  return (request, reply) => {
    if (!request.routeOptions?.config?.rateLimited) return undefined;
    const session = webSessionOf(request);
    const token = session === undefined ? (bearerToken(request) ?? '') : `session ${session.id}`;
    if (admit(token)) return undefined;
    reply.header('retry-after', '1');
    return sendError(request, reply, 429, 'rate limit exceeded');
  };
}

/** Counts one request of a token (or session); true while it is within the limit of this second. */
export type RateLimiter = (key: string) => boolean;

export function rateLimiter(perSecond: () => number, now: () => number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return (key) => {
    const second = Math.floor(now() / 1000);
    let window = windows.get(key);
    if (!window || window.start !== second) {
      if (windows.size > 1000) windows.clear();
      window = { start: second, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    return window.count <= perSecond();
  };
}
