import assert from 'node:assert/strict';
import type { NotificationDto } from '../../src/client/api-types.js';
import type { BrokerProcess } from '../support/broker-process.js';
import { callJson } from '../support/outbox-broker.js';

/** Helpers of the channel tests: a provider with a route, notifications, and a real waiting hook. */

/** Creates an enabled provider of `kind` and an enabled route sending it everything; returns its id. */
export async function channelProvider(
  broker: BrokerProcess,
  kind: string,
  settings: Record<string, unknown>,
  name = kind,
): Promise<string> {
  const provider = await callJson(broker, 'POST', '/v1/providers', { kind, name, settings, enabled: true });
  assert.equal(provider.status, 201, JSON.stringify(provider.body));
  const providerId = provider.body!['id'] as string;
  const route = await callJson(broker, 'POST', '/v1/routes', {
    providerId,
    minimumPriority: 'low',
    enabled: true,
  });
  assert.equal(route.status, 201, JSON.stringify(route.body));
  for (const path of [`/v1/providers/${providerId}`, `/v1/routes/${route.body!['id']}`])
    assert.equal((await callJson(broker, 'POST', `${path}/enable`)).status, 200);
  return providerId;
}

export const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

/** Creates (or, with the same key, updates in place) a request offering Allow and Deny. */
export async function ask(
  broker: BrokerProcess,
  title: string,
  message: string,
  key?: string,
): Promise<NotificationDto> {
  const created = await callJson(broker, 'POST', '/v1/notifications', {
    title,
    message,
    actions: ACTIONS,
    ...(key !== undefined && { key }),
  });
  assert.ok(created.status === 201 || created.status === 200, JSON.stringify(created.body));
  return created.body as NotificationDto;
}

export async function notificationOf(broker: BrokerProcess, id: string): Promise<NotificationDto> {
  return (await callJson(broker, 'GET', `/v1/notifications/${id}`)).body as NotificationDto;
}

export { ALLOW_DECISION, permissionHook, type RunningHook } from './permission-hook.js';
