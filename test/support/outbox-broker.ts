import { fileURLToPath } from 'node:url';
import type { BrokerProcess } from './broker-process.js';

/** The broker entry point with the test provider kind (outbox-broker-main.ts). */
export const OUTBOX_BROKER = fileURLToPath(new URL('./outbox-broker-main.js', import.meta.url));

// Answers are read loosely: the assertions say what each field must be.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = Record<string, any>;

/** One API call with its status and parsed JSON body. */
export async function callJson(
  broker: BrokerProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body | undefined }> {
  const response = await broker.request(method, path, body);
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Body) : undefined };
}

/** Creates a test-http provider and a route to it, both enabled; returns their ids. */
export async function enabledRouteTo(
  broker: BrokerProcess,
  url: string,
  route: Record<string, unknown> = {},
) {
  const provider = await callJson(broker, 'POST', '/v1/providers', { kind: 'test-http', settings: { url } });
  const providerId = provider.body!['id'] as string;
  await callJson(broker, 'POST', `/v1/providers/${providerId}/enable`);
  const created = await callJson(broker, 'POST', '/v1/routes', {
    providerId,
    minimumPriority: 'low',
    ...route,
  });
  const routeId = created.body!['id'] as string;
  await callJson(broker, 'POST', `/v1/routes/${routeId}/enable`);
  return { providerId, routeId };
}
