import type { ServerResponse } from 'node:http';

/**
 * The headers of every answer, the page's and the API's (issue 21): no inline script or style, never
 * framed, never sniffed, no Referer carrying a sign-in link elsewhere.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const entries = Object.entries(SECURITY_HEADERS);

/** The same as one flat name, value, name, value list: `writeHead` writes such a list without a lookup per name. */
export const SECURITY_HEADER_LIST: readonly string[] = entries.flat();

/** Set on the raw response, so answers written past fastify (the event stream) carry them too. */
export function setSecurityHeaders(response: ServerResponse): void {
  for (const [name, value] of entries) response.setHeader(name, value);
}
