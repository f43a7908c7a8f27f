import type { DeliveryResult } from './provider.js';
import type { FixedReasonCode } from './reason-codes.js';

/**
 * Pure classification of what a receiver answered into delivered / retry / reject. Reasons are short
 * codes and never carry exception text, payloads or URLs: those may hold secrets.
 */

const RETRYABLE_STATUSES = new Set([408, 425, 429]);

/** `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3); unusable values give undefined. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function classifyStatus(status: number, retryAfter: string | undefined, now: number): DeliveryResult {
  if (status >= 200 && status < 300) return { outcome: 'delivered', status };
  const reason = `http_${status}` as const;
  if (RETRYABLE_STATUSES.has(status) || status >= 500) {
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter, now) : undefined;
    return retryAfterMs === undefined
      ? { outcome: 'retry', reason, status }
      : { outcome: 'retry', reason, status, retryAfterMs };
  }
  return { outcome: 'reject', reason, status };
}

/** The code of a connection refused before it was made: the host resolved to an address it may not reach. */
export const ADDRESS_NOT_ALLOWED = 'ERR_NOTIFY_ADDRESS_NOT_ALLOWED';

const ERROR_CODES: Readonly<Record<string, FixedReasonCode>> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
  ENOTFOUND: 'dns_failure',
  EAI_AGAIN: 'dns_failure',
  EHOSTUNREACH: 'host_unreachable',
  ENETUNREACH: 'host_unreachable',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (current instanceof AggregateError) {
      for (const inner of current.errors) codes.push(...errorCodes(inner));
    }
    current = current.cause;
  }
  return codes;
}

/**
 * A failure before any answer. Network trouble is transient, so it is retried; the time-out is named
 * `timeout` whatever layer noticed it first.
 */
export function classifyNetworkError(error: unknown, aborted: boolean): DeliveryResult {
  if (aborted) return { outcome: 'retry', reason: 'timeout' };
  const codes = errorCodes(error);
  if (codes.includes(ADDRESS_NOT_ALLOWED)) return { outcome: 'reject', reason: 'address_not_allowed' };
  for (const code of codes) {
    const reason = ERROR_CODES[code];
    if (reason !== undefined) return { outcome: 'retry', reason };
  }
  if (
    codes.some((code) => code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))
  ) {
    return { outcome: 'retry', reason: 'tls_error' };
  }
  return { outcome: 'retry', reason: 'network_error' };
}
