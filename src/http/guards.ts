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
  let allowedPort = -1;
  let allowed: string[] = [];
  return (request, reply) => {
    if (cameOverUnixSocket(request)) return undefined;
    const host = request.headers.host?.toLowerCase();
    // Built again only when the port changes (a config reload), not on every request.
    if (port() !== allowedPort) {
      allowedPort = port();
      allowed = [`127.0.0.1:${allowedPort}`, `localhost:${allowedPort}`, `[::1]:${allowedPort}`];
    }
    if (host !== undefined && allowed.includes(host)) return undefined;
    return sendError(
      request,
      reply,
      421,
      `Host header must be 127.0.0.1:${port()}, localhost:${port()} or [::1]:${port()}; other hosts are refused to prevent DNS rebinding`,
    );
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

/** One-shot: a Hash object per request costs several times the digest itself. */
const sha256 = (value: string) => hash('sha256', value, 'buffer');

/** The token of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110). */
export function bearerToken(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Spec "Authentication" 1: every /v1/* path, including ones that match no route. */
function needsAuth(request: FastifyRequest): boolean {
  // A request the router refused (bad percent-encoding) has no route options.
  return request.routeOptions?.config?.auth ?? request.url.startsWith('/v1/');
}

/** Node keeps only the first of repeated Authorization headers; the raw list shows them all. */
function authorizationCount(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length === 13 && raw[index]!.toLowerCase() === 'authorization') count++;
  }
  return count;
}

/**
 * Both sides hashed to equal length, then compared in fixed time (spec "Authentication" 3). The
 * expected token's hash is kept until the token changes (a config reload), not recomputed per request.
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
  let hashedToken = '';
  let hashedExpected = sha256('');
  return (request, reply) => {
    if (!needsAuth(request)) return undefined;
    // Taking the first of two would let whatever sits in front of the broker choose which one counts.
    if (authorizationCount(request) > 1) {
      return sendError(request, reply, 400, 'only one Authorization header is allowed');
    }
    const credentials = request.routeOptions?.config?.credentials;
    const secret = sessionSecret(request);
    if (secret !== undefined) {
      if (sessions && credentials !== 'token' && sessionSignIn(sessions, request, secret)) return undefined;
    } else {
      const supplied = bearerToken(request);
      if (credentials !== 'session') {
        const expected = token();
        if (expected !== hashedToken) {
          hashedExpected = sha256(expected);
          hashedToken = expected;
        }
        if (supplied !== undefined && expected !== '' && timingSafeEqual(sha256(supplied), hashedExpected)) {
          return undefined;
        }
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
export function rateLimitGuard(perSecond: () => number, now: () => number): Guard {
  const windows = new Map<string, { start: number; count: number }>();
  return (request, reply) => {
    if (!request.routeOptions?.config?.rateLimited) return undefined;
    const session = webSessionOf(request);
    const token = session === undefined ? (bearerToken(request) ?? '') : `session ${session.id}`;
    const second = Math.floor(now() / 1000);
    let window = windows.get(token);
    if (!window || window.start !== second) {
      if (windows.size > 1000) windows.clear();
      window = { start: second, count: 0 };
      windows.set(token, window);
    }
    window.count++;
    if (window.count <= perSecond()) return undefined;
    reply.header('retry-after', '1');
    return sendError(request, reply, 429, 'rate limit exceeded');
  };
}
