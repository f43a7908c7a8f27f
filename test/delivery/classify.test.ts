import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyNetworkError, classifyStatus, parseRetryAfter } from '../../src/delivery/classify.js';
import type { DeliveryResult } from '../../src/delivery/provider.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

/** The issue's classification table: 2xx delivered; 408, 425, 429 and 5xx retry; other 4xx reject. */
const STATUS_TABLE: [status: number, retryAfter: string | undefined, expected: DeliveryResult][] = [
  [200, undefined, { outcome: 'delivered', status: 200 }],
  [201, undefined, { outcome: 'delivered', status: 201 }],
  [204, undefined, { outcome: 'delivered', status: 204 }],
  [400, undefined, { outcome: 'reject', reason: 'http_400', status: 400 }],
  [401, undefined, { outcome: 'reject', reason: 'http_401', status: 401 }],
  [403, undefined, { outcome: 'reject', reason: 'http_403', status: 403 }],
  [404, undefined, { outcome: 'reject', reason: 'http_404', status: 404 }],
  [408, undefined, { outcome: 'retry', reason: 'http_408', status: 408 }],
  [413, undefined, { outcome: 'reject', reason: 'http_413', status: 413 }],
  [425, undefined, { outcome: 'retry', reason: 'http_425', status: 425 }],
  [429, undefined, { outcome: 'retry', reason: 'http_429', status: 429 }],
  [429, '120', { outcome: 'retry', reason: 'http_429', status: 429, retryAfterMs: 120_000 }],
  [
    429,
    'Mon, 23 Nov 2026 12:00:30 GMT',
    { outcome: 'retry', reason: 'http_429', status: 429, retryAfterMs: 30_000 },
  ],
  [429, 'soon', { outcome: 'retry', reason: 'http_429', status: 429 }],
  [500, undefined, { outcome: 'retry', reason: 'http_500', status: 500 }],
  [502, undefined, { outcome: 'retry', reason: 'http_502', status: 502 }],
  [503, '5', { outcome: 'retry', reason: 'http_503', status: 503, retryAfterMs: 5000 }],
  [504, undefined, { outcome: 'retry', reason: 'http_504', status: 504 }],
];

describe('classifyStatus', () => {
  for (const [status, retryAfter, expected] of STATUS_TABLE) {
    it(`answers ${expected.outcome} for HTTP ${status}${retryAfter ? ` with Retry-After "${retryAfter}"` : ''}`, () => {
      assert.deepEqual(classifyStatus(status, retryAfter, NOW), expected);
    });
  }
});

describe('parseRetryAfter', () => {
  it('reads a date in the past as no wait at all', () => {
    assert.equal(parseRetryAfter('Mon, 23 Nov 2026 11:00:00 GMT', NOW), 0);
  });
});

function failure(code: string, cause?: Error): Error {
  return Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443 token=secret'), { code, cause });
}

/** Network failures by code, wherever in the cause chain the code sits; the message is never used. */
const ERROR_TABLE: [name: string, error: unknown, aborted: boolean, reason: string][] = [
  ['refused', failure('ECONNREFUSED'), false, 'connection_refused'],
  [
    'refused inside a wrapper',
    new TypeError('fetch failed', { cause: failure('ECONNREFUSED') }),
    false,
    'connection_refused',
  ],
  [
    'refused inside an AggregateError',
    new AggregateError([failure('ECONNREFUSED')]),
    false,
    'connection_refused',
  ],
  ['reset', failure('ECONNRESET'), false, 'connection_reset'],
  ['socket closed by undici', failure('UND_ERR_SOCKET'), false, 'connection_reset'],
  ['unknown host', failure('ENOTFOUND'), false, 'dns_failure'],
  ['connect time-out', failure('UND_ERR_CONNECT_TIMEOUT'), false, 'timeout'],
  ['headers time-out', failure('UND_ERR_HEADERS_TIMEOUT'), false, 'timeout'],
  ['self-signed certificate', failure('DEPTH_ZERO_SELF_SIGNED_CERT'), false, 'tls_error'],
  ['aborted by the attempt signal', failure('UND_ERR_ABORTED'), true, 'timeout'],
  ['something else', new Error('boom'), false, 'network_error'],
];

describe('classifyNetworkError', () => {
  for (const [name, error, aborted, reason] of ERROR_TABLE) {
    it(`retries with reason ${reason} when the failure is: ${name}`, () => {
      assert.deepEqual(classifyNetworkError(error, aborted), { outcome: 'retry', reason });
    });
  }
});
