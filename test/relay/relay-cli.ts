import assert from 'node:assert/strict';
import type { BrokerProcess } from '../support/broker-process.js';
import { runNotify, type CliResult } from '../support/notify-cli.js';
import type { TestRelay } from '../support/test-relay.js';

/** Helpers of the relay tests: the real `notify` against a broker, and what the broker then keeps. */

export interface ProviderView {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, boolean>;
}

export function notify(broker: BrokerProcess, ...args: string[]): Promise<CliResult> {
  return runNotify(args, { env: broker.home.env });
}

export function pair(broker: BrokerProcess, relay: TestRelay, ...args: string[]): Promise<CliResult> {
  return notify(broker, 'relay', 'pair', '--url', relay.url, '--allow-private', ...args);
}

export async function relayProfiles(broker: BrokerProcess): Promise<ProviderView[]> {
  const providers = (await (await broker.request('GET', '/v1/providers')).json()) as ProviderView[];
  return providers.filter((provider) => provider.kind === 'relay');
}

export async function profileOf(
  broker: BrokerProcess,
  relay: { url: string },
): Promise<ProviderView | undefined> {
  return (await relayProfiles(broker)).find((profile) => profile.settings['url'] === relay.url);
}

/** Enables the provider and an enabled route that sends it every notification. */
export async function routeEverythingTo(broker: BrokerProcess, providerId: string): Promise<void> {
  assert.equal((await broker.request('POST', `/v1/providers/${providerId}/enable`)).status, 200);
  const route = (await (await broker.request('POST', '/v1/routes', { providerId })).json()) as {
    id: string;
  };
  assert.equal((await broker.request('POST', `/v1/routes/${route.id}/enable`)).status, 200);
}

/** The --json lines of stdout, parsed. */
export function states(result: CliResult): Record<string, unknown>[] {
  return result.stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** No credential the relay handed out appears in anything notify printed. */
export function assertNoCredential(result: CliResult, relay: TestRelay): void {
  for (const credential of relay.credentials) {
    assert.ok(!result.stdout.includes(credential), 'the credential reached stdout');
    assert.ok(!result.stderr.includes(credential), 'the credential reached stderr');
  }
}
