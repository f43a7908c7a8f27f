import assert from 'node:assert/strict';
import type { PushService, PushSubscriptionJson, ReceivedPush } from '../support/push-service.js';
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

/** The push of a new permission request as `delivered()` makes it: content, answer link, urgency, TTL, topic. */
export function assertRequestPush(push: ReceivedPush | undefined, id: string, relayUrl: string): void {
  assert.ok(push, 'a push arrived');
  const { answer, ...rest } = push.payload as { answer: { url: string; token: string } };
  assert.deepEqual(rest, {
    id,
    lifecycle: 1,
    revision: 1,
    status: 'active',
    title: 'Run this?',
    body: 'npm publish',
    agent: 'claude-code',
    project: 'notify',
    type: 'permission_required',
    priority: 'high',
    actions: [
      { id: 'allow', label: 'Allow' },
      { id: 'deny', label: 'Deny' },
    ],
  });
  assert.match(answer.url, new RegExp(`^${relayUrl}/v1/push/notifications/\\d+/answer$`));
  assert.match(answer.token, /^nrt_[A-Za-z0-9_-]{43}$/);
  assert.equal(push.urgency, 'high');
  assert.ok(push.ttl > 23 * 3600 && push.ttl <= 24 * 3600, `TTL ${push.ttl}`);
  assert.match(push.topic!, /^[A-Za-z0-9_-]{32}$/);
}
