import assert from 'node:assert/strict';
import type { BrokerProcess } from '../support/broker-process.js';
import { waitFor } from '../support/wait-for.js';

/** Creates an MQTT provider, enables it and routes everything to it; resolves to its id. */
export async function mqttProvider(
  broker: BrokerProcess,
  settings: Record<string, unknown>,
): Promise<string> {
  const created = await broker.request('POST', '/v1/providers', { kind: 'mqtt', name: 'MQTT', settings });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  assert.equal((await broker.request('POST', `/v1/providers/${id}/enable`)).status, 200);
  const route = (await (await broker.request('POST', '/v1/routes', { providerId: id })).json()) as {
    id: string;
  };
  assert.equal((await broker.request('POST', `/v1/routes/${route.id}/enable`)).status, 200);
  return id;
}

export interface ProviderView {
  health: string;
  lastResult?: { outcome: string; reason?: string };
  listening?: { state: string; reason?: string };
}

export async function providerView(broker: BrokerProcess, id: string): Promise<ProviderView> {
  return (await (await broker.request('GET', `/v1/providers/${id}`)).json()) as ProviderView;
}

/** Waits until the provider's answer listener is in `state` (listening, retrying, refused). */
export function listening(broker: BrokerProcess, id: string, state: string, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const view = await providerView(broker, id);
      return view.listening?.state === state ? view.listening : undefined;
    },
    `the MQTT listener ${state}`,
    timeoutMs,
  );
}

export const ACTIONS = [
  { id: 'allow', label: 'Allow' },
  { id: 'deny', label: 'Deny' },
];

export interface Created {
  id: string;
  revision: number;
  status: string;
  answer?: { action: string; surface: string };
}

export async function raise(broker: BrokerProcess, body: Record<string, unknown>): Promise<Created> {
  const response = await broker.request('POST', '/v1/notifications', {
    type: 'permission_required',
    message: 'Run the migration?',
    actions: ACTIONS,
    ...body,
  });
  assert.ok(response.status === 201 || response.status === 200, await response.clone().text());
  return (await response.json()) as Created;
}

export async function notification(broker: BrokerProcess, id: string): Promise<Created> {
  return (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Created;
}
