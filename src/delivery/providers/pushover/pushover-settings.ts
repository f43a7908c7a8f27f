import type { SettingDeclaration } from '../../provider.js';

/** Pushover's bounds for emergency priority (pushover.net/api#priority): retry at least 30 s, expire at most 3 h. */
export const MIN_RETRY_SECONDS = 30;
export const MAX_EXPIRE_SECONDS = 10_800;

export const PUSHOVER_SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'userKey',
    type: 'string',
    required: true,
    secret: true,
    help: 'Your user (or group) key, shown at the top of your dashboard on pushover.net once logged in.',
  },
  {
    name: 'appToken',
    type: 'string',
    required: true,
    secret: true,
    help: 'The API token of an application you create at pushover.net/apps/build (e.g. named Notify).',
  },
  {
    name: 'device',
    type: 'string',
    required: false,
    secret: false,
    help: 'Send to this device only (its name in the Pushover app); empty sends to all your devices.',
  },
  {
    name: 'sound',
    type: 'string',
    required: false,
    secret: false,
    help: 'A Pushover sound name (pushover.net/api#sounds) instead of your default, e.g. siren.',
  },
  {
    name: 'clickUrl',
    type: 'url',
    required: false,
    secret: false,
    help: 'A page the notification links to (Pushover\'s supplementary URL, titled "Open in Notify"), e.g. your Notify page through a tunnel.',
  },
  {
    name: 'retry',
    type: 'integer',
    required: false,
    secret: false,
    help: 'Critical notifications only: how often, in seconds, Pushover repeats the alert until you acknowledge it (less than 30 counts as 30).',
    default: 60,
  },
  {
    name: 'expire',
    type: 'integer',
    required: false,
    secret: false,
    help: 'Critical notifications only: how long, in seconds, Pushover keeps repeating it (more than 10800, 3 hours, counts as 10800).',
    default: 3600,
  },
  {
    name: 'apiUrl',
    type: 'url',
    required: true,
    secret: false,
    help: 'The Pushover API; change it only for a stand-in in tests.',
    default: 'https://api.pushover.net',
  },
];
