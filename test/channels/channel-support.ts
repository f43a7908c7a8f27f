import assert from 'node:assert/strict';
import type { BrokerProcess } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';

/** What the tests of the channels that answer share: a provider routed everything, a real hook, reads. */

export interface NotificationView {
  id: string;
  status: string;
  revision: number;
  answer?: { action: string; surface: string };
}

/** Creates an enabled provider of `kind` and an enabled route that sends it everything; its id. */
export async function addChannel(
  broker: BrokerProcess,
  kind: string,
  settings: Record<string, string>,
): Promise<string> {
  const created = await broker.request('POST', '/v1/providers', { kind, name: kind, settings });
  const body = (await created.json()) as { id: string; error?: string };
  assert.equal(created.status, 201, body.error);
  assert.equal((await broker.request('POST', `/v1/providers/${body.id}/enable`)).status, 200);
  const route = (await (await broker.request('POST', '/v1/routes', { providerId: body.id })).json()) as {
    id: string;
  };
  assert.equal((await broker.request('POST', `/v1/routes/${route.id}/enable`)).status, 200);
  return body.id;
}

/** Waits until the provider's listener says `listening` in the providers API. */
export function listening(broker: BrokerProcess, providerId: string): Promise<true> {
  return waitFor(async () => {
    const view = (await (await broker.request('GET', `/v1/providers/${providerId}`)).json()) as {
      listening?: { state: string };
    };
    return view.listening?.state === 'listening';
  }, 'the channel listening');
}

export async function notification(broker: BrokerProcess, id: string): Promise<NotificationView> {
  return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as NotificationView;
}

/** POST /v1/notifications; the created (or, with a key, updated) notification. */
export async function raise(
  broker: BrokerProcess,
  fields: Record<string, unknown>,
): Promise<NotificationView> {
  const response = await broker.request('POST', '/v1/notifications', { message: 'details', ...fields });
  assert.ok(response.status === 200 || response.status === 201, String(response.status));
  return (await response.json()) as NotificationView;
}

export { ALLOW_DECISION, permissionHook, type RunningHook } from './permission-hook.js';

/** The outbox items of one notification. */
export async function deliveries(
  broker: BrokerProcess,
  notificationId: string,
): Promise<
  {
    operation: string;
    state: string;
    lastStatus: number | null;
    nextAttemptAt: string | null;
    updatedAt: string;
  }[]
> {
  return (await (await broker.request('GET', `/v1/outbox?notificationId=${notificationId}`)).json()) as never;
}
