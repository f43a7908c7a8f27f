import assert from 'node:assert/strict';
import type { PushService, PushSubscriptionJson } from '../support/push-service.js';
import type { WebSession } from '../support/relay-web.js';

/** Helpers of the phone push tests: register a device through the inbox API as the inbox page does. */

export const PUSH_ARGS = ['--allow-loopback-push', '--contact', 'mailto:ops@example.org'];

/** The relay's public key, trusted by the stand-in, then a new subscription registered: its device id. */
export async function addDevice(
  web: WebSession,
  service: PushService,
  name = 'Pixel 9',
): Promise<{ id: string; subscription: PushSubscriptionJson }> {
  const key = await web.inbox('GET', '/v1/inbox/push/key');
  assert.equal(key.status, 200, JSON.stringify(key.body));
  service.trust(key.body['publicKey'] as string);
  const subscription = service.subscribe();
  const added = await web.inbox('POST', '/v1/inbox/push/subscriptions', { ...subscription, name });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { id: added.body['id'] as string, subscription };
}

export interface DeviceView {
  id: string;
  name: string;
  added_at: string;
  last_delivery_at?: string;
  last_failure_at?: string;
  last_failure?: string;
}

export async function devices(web: WebSession): Promise<DeviceView[]> {
  const listed = await web.inbox('GET', '/v1/inbox/push/subscriptions');
  assert.equal(listed.status, 200);
  return listed.body['subscriptions'] as DeviceView[];
}
