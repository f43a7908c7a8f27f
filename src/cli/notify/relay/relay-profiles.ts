import type { NotifyClient } from '../../../client/notify-client.js';
import { normalizeRelayBase } from '../../../domain/relay/relay-url.js';

/**
 * Relay profiles as the broker keeps them: providers of kind `relay` (docs/providers.md), whose
 * credential is a secret setting the broker's API accepts but never returns.
 */

export const RELAY_KIND = 'relay';

export interface RelayProfile {
  id: string;
  name: string;
  enabled: boolean;
  url: string;
}

/** GET /v1/providers/{id}/connection: the broker asks the relay with the credential it keeps. */
export interface RelayConnection {
  state: 'connected' | 'revoked' | 'unreachable' | 'failing' | 'secrets_unreadable';
  summary: string;
  reason?: string;
  status?: number;
  installation?: { id: string; name: string };
}

interface ProviderView {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
}

export async function listRelayProfiles(client: NotifyClient): Promise<RelayProfile[]> {
  const providers = await client.request<ProviderView[]>('GET', '/v1/providers');
  return providers
    .filter((provider) => provider.kind === RELAY_KIND)
    .map((provider) => ({
      id: provider.id,
      name: provider.name,
      enabled: provider.enabled,
      url: typeof provider.settings['url'] === 'string' ? provider.settings['url'] : '',
    }));
}

export function profileFor(profiles: readonly RelayProfile[], base: string): RelayProfile | undefined {
  return profiles.find((profile) => normalizeRelayBase(profile.url) === base);
}

/**
 * Stores the URL, the credential and --allow-private together, in one call: the profile with this URL is updated (its
 * name only when one was given), else a new one is created, disabled as every new provider is.
 */
export async function saveRelayProfile(
  client: NotifyClient,
  existing: RelayProfile | undefined,
  profile: { url: string; credential: string; allowPrivate: boolean; name: string; nameGiven: boolean },
): Promise<{ profile: RelayProfile; created: boolean }> {
  // --allow-private is remembered: notifyd applies the same address rules on every connection.
  const settings = { url: profile.url, credential: profile.credential, allowPrivate: profile.allowPrivate };
  const saved =
    existing === undefined
      ? await client.request<ProviderView>('POST', '/v1/providers', {
          kind: RELAY_KIND,
          name: profile.name,
          settings,
        })
      : await client.request<ProviderView>('PATCH', `/v1/providers/${encodeURIComponent(existing.id)}`, {
          settings,
          ...(profile.nameGiven && { name: profile.name }),
        });
  return {
    profile: { id: saved.id, name: saved.name, enabled: saved.enabled, url: profile.url },
    created: existing === undefined,
  };
}

export function checkConnection(client: NotifyClient, id: string): Promise<RelayConnection> {
  return client.request<RelayConnection>('GET', `/v1/providers/${encodeURIComponent(id)}/connection`);
}
