/** Headers, cookies, CSRF and the relay's own origin: what every route of the relay relies on. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newSecret, sameSecret } from '../secrets.js';

export const SESSION_COOKIE = 'notify_relay_session';
export const CSRF_COOKIE = 'notify_relay_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** No inline script or style anywhere: everything the pages run or style comes from /assets/. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function securityHeaders(request: FastifyRequest): Record<string, string> {
  return securityHeadersOver(isHttps(request));
}

/** The same headers where there is no request to look at (a request Node's parser refused). */
export function securityHeadersOver(https: boolean): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Setup and invitation links carry a token in the query: never send it on to another site.
    // (Not no-referrer: under it Chromium sends `Origin: null` on our own form posts.)
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(https && { 'strict-transport-security': 'max-age=31536000' }),
  };
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** The origin the client used, as the relay sees it (X-Forwarded-* only with --trust-proxy). */
export function originOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * A cookie's name as this request sees it. Over HTTPS the `__Host-` prefix makes the browser keep
 * only a cookie this very host set (Secure, Path=/, no Domain): a sibling host cannot plant one.
 */
function cookieName(request: FastifyRequest, name: string): string {
  return isHttps(request) ? `__Host-${name}` : name;
}

/**
 * The value of one of our cookies, when the browser sent it exactly once. Two with the same name
 * mean another host of the domain planted one beside ours (cookie tossing): neither is trusted.
 */
export function cookie(request: FastifyRequest, name: string): string | undefined {
  const wanted = cookieName(request, name);
  const values: string[] = [];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index >= 1 && part.slice(0, index).trim() === wanted) values.push(part.slice(index + 1).trim());
  }
  return values.length === 1 ? values[0] : undefined;
}

function cookieText(request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  return [
    `${cookieName(request, name)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(isHttps(request) ? ['Secure'] : []),
  ].join('; ');
}

export function addCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  const existing = reply.getHeader('set-cookie');
  const list = Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)];
  reply.header('set-cookie', [...list, cookieText(request, name, value, maxAgeSeconds)]);
}

/** Tokens set during a request, so every page rendered in its response carries the same one. */
const issuedCsrf = new WeakMap<FastifyRequest, string>();

/** The CSRF token of this browser (double-submit cookie), set now when it has none. */
export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = issuedCsrf.get(request) ?? cookie(request, CSRF_COOKIE);
  if (existing && /^nrx_[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = newSecret('nrx_');
  addCookie(reply, request, CSRF_COOKIE, token, 7 * 24 * 3600);
  issuedCsrf.set(request, token);
  return token;
}

/**
 * A state-changing browser request is genuine when it carries the token of the CSRF cookie (a form
 * field or the X-CSRF-Token header) and, if the browser names its origin, comes from this origin.
 */
export function isGenuine(
  request: FastifyRequest,
  presented: unknown,
  publicUrl: string | undefined,
): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== originOf(request, publicUrl)) return false;
  const expected = cookie(request, CSRF_COOKIE);
  return typeof presented === 'string' && expected !== undefined && sameSecret(presented, expected);
}

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header.trim());
  return match?.[1];
}

/**
 * A path and query on this origin, in visible ASCII URL characters only: no `//` or `\\` (another host),
 * no tab, CR or LF (browsers drop them, so `/\t/evil.example` becomes `//evil.example`).
 */
const LOCAL_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]{0,299}$/;

/** A `next` a sign-in may send the browser to: a path on this origin only, else the inbox. */
export function localPath(value: unknown): string {
  return typeof value === 'string' && LOCAL_PATH.test(value) ? value : '/inbox';
}
