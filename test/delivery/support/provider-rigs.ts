import { freePort } from '../../support/broker-process.js';
import { googleChatRig, teamsRig } from './chat-webhook-rigs.js';
import { discordRig, slackRig } from './chat-rigs.js';
import { gotifyRig, ntfyRig, relayRig, webhookRig } from './http-rigs.js';
import { appriseRig, emailRig } from './mail-apprise-rigs.js';
import { matrixRig } from './matrix-rig.js';
import { mqttRig } from './mqtt-rig.js';
import { pushoverRig } from './pushover-rig.js';
import type { ProviderRig } from './rig.js';
import { telegramRig } from './telegram-rig.js';

/** Every provider's conformance rig, one line each, in registry order. */
export const PROVIDER_RIGS: readonly ProviderRig[] = [
  webhookRig,
  ntfyRig,
  gotifyRig,
  emailRig,
  appriseRig,
  relayRig,
  teamsRig,
  googleChatRig,
  slackRig,
  discordRig,
  telegramRig,
  matrixRig,
  mqttRig,
  pushoverRig,
];

export type { Failure, Rig } from './rig.js';
export { freePort };
