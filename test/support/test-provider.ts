import { Agent, request } from 'node:http';
import type { DeliveryResult, ProviderKind } from '../../src/delivery/provider.js';

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One POST over node:http (kept-alive connections: cheaper than fetch for thousands of deliveries). */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers, agent, signal }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A provider kind for tests only: POSTs the operation as JSON to a local receiver over real HTTP and
 * classifies the answer the way issue 9 says (2xx delivered; 408, 425, 429, 5xx and network errors
 * retry, with Retry-After; other statuses reject). It can edit and clear what it delivered.
 */
export const TEST_PROVIDER_KIND: ProviderKind = {
  id: 'test-http',
  title: 'Test HTTP',
  description: 'Posts JSON to a local receiver (tests only).',
  settings: [
    { name: 'url', type: 'url', required: true, secret: false, help: 'Where to POST.' },
    { name: 'token', type: 'string', required: false, secret: true, help: 'Sent as a bearer token.' },
  ],
  lifecycle: { update: true, clear: true },
  async deliver(operation, context): Promise<DeliveryResult> {
    const body = JSON.stringify(operation);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'idempotency-key': operation.idempotencyKey,
    };
    if (typeof context.settings['token'] === 'string')
      headers['authorization'] = `Bearer ${context.settings['token']}`;
    let answer: Answer;
    try {
      answer = await post(String(context.settings['url']), headers, body, context.signal);
    } catch (error) {
      if (context.signal.aborted) return { outcome: 'retry', reason: 'timeout' };
      const code = (error as NodeJS.ErrnoException).code;
      return { outcome: 'retry', reason: code === 'ECONNREFUSED' ? 'connection_refused' : 'network_error' };
    }
    const { status } = answer;
    if (status >= 200 && status < 300) {
      const reference = answer.headers['x-reference'];
      return { outcome: 'delivered', status, ...(typeof reference === 'string' && { reference }) };
    }
    if ([408, 425, 429].includes(status) || status >= 500) {
      const header = answer.headers['retry-after'];
      const seconds = Number(header);
      return {
        outcome: 'retry',
        reason: `http_${status}`,
        status,
        ...(typeof header === 'string' && Number.isFinite(seconds) && { retryAfterMs: seconds * 1000 }),
      };
    }
    return { outcome: 'reject', reason: `http_${status}`, status };
  },
};
