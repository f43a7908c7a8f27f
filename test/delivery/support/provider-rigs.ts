import { freePort } from '../../support/broker-process.js';
import { gotifyRig, ntfyRig, relayRig, webhookRig } from './http-rigs.js';
import { appriseRig, emailRig } from './mail-apprise-rigs.js';
import type { ProviderRig } from './rig.js';

/** Every provider's conformance rig, one line each, in registry order. */
export const PROVIDER_RIGS: readonly ProviderRig[] = [
  webhookRig,
  ntfyRig,
  gotifyRig,
  emailRig,
  appriseRig,
  relayRig,
];

export type { Failure, Rig } from './rig.js';
export { freePort };
