import type { ProviderKind } from './provider.js';
import { apprise } from './providers/apprise/apprise.js';
import { discord } from './providers/discord/discord.js';
import { email } from './providers/email/email.js';
import { googleChat } from './providers/google-chat/google-chat.js';
import { mqtt } from './providers/mqtt/mqtt.js';
import { gotify } from './providers/gotify/gotify.js';
import { matrix } from './providers/matrix/matrix.js';
import { ntfy } from './providers/ntfy/ntfy.js';
import { pushover } from './providers/pushover/pushover.js';
import { relay } from './providers/relay/relay.js';
import { teams } from './providers/teams/teams.js';
import { slack } from './providers/slack/slack.js';
import { telegram } from './providers/telegram/telegram.js';
import { webhook } from './providers/webhook/webhook.js';

/** Every provider kind Notify can deliver to: one line each (kept so, for one-line additions and merges). */
// prettier-ignore
export const PROVIDER_KINDS: readonly ProviderKind[] = [
  webhook,
  ntfy,
  gotify,
  email,
  apprise,
  relay,
  teams,
  googleChat,
  slack,
  discord,
  telegram,
  matrix,
  mqtt,
  pushover,
];
