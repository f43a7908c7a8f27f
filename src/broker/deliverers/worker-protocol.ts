import type { DeliveryResult, ProviderKind } from '../../delivery/provider.js';
import type { AttemptRequest } from './deliverer.js';

/** What the delivery thread is started with: the module whose PROVIDER_KINDS it delivers with. */
export interface DeliveryThreadData {
  kindsModule: string;
}

export type ToDeliveryThread =
  { type: 'attempt'; id: number; request: AttemptRequest } | { type: 'cancel'; id: number };

export interface FromDeliveryThread {
  id: number;
  result: DeliveryResult;
}

/** The provider kinds a module exports as PROVIDER_KINDS (src/delivery/registry.ts, or a test's). */
export async function importKinds(kindsModule: string): Promise<readonly ProviderKind[]> {
  const loaded = (await import(kindsModule)) as { PROVIDER_KINDS?: readonly ProviderKind[] };
  if (!Array.isArray(loaded.PROVIDER_KINDS)) throw new Error(`${kindsModule} exports no PROVIDER_KINDS`);
  return loaded.PROVIDER_KINDS;
}

/** The kinds notifyd delivers with. */
export const REGISTRY_MODULE = new URL('../../delivery/registry.js', import.meta.url).href;
