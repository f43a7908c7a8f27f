import type { DeliveryResult, ProviderKind } from '../../src/delivery/provider.js';

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
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': operation.idempotencyKey,
    };
    if (typeof context.settings['token'] === 'string')
      headers['authorization'] = `Bearer ${context.settings['token']}`;
    let response: Response;
    try {
      response = await fetch(String(context.settings['url']), {
        method: 'POST',
        headers,
        body: JSON.stringify(operation),
        signal: context.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (context.signal.aborted) return { outcome: 'retry', reason: 'timeout' };
      const code = (error as { cause?: { code?: string } }).cause?.code;
      return { outcome: 'retry', reason: code === 'ECONNREFUSED' ? 'connection_refused' : 'network_error' };
    }
    const text = await response.text().catch(() => '');
    const status = response.status;
    if (status >= 200 && status < 300) {
      const reference = response.headers.get('x-reference') ?? undefined;
      return { outcome: 'delivered', status, ...(reference !== undefined && { reference }) };
    }
    void text;
    if ([408, 425, 429].includes(status) || status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        outcome: 'retry',
        reason: `http_${status}`,
        status,
        ...(response.headers.has('retry-after') &&
          Number.isFinite(retryAfter) && { retryAfterMs: retryAfter * 1000 }),
      };
    }
    return { outcome: 'reject', reason: `http_${status}`, status };
  },
};
