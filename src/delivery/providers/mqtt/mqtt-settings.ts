import { readFileSync } from 'node:fs';
import type { SettingDeclaration, SettingValues } from '../../provider.js';
import { flag, optionalString, requiredString } from '../../setting-values.js';

const SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];

function brokerUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL, e.g. mqtt://homeassistant.local:1883';
  }
  if (!SCHEMES.includes(url.protocol)) return 'must be an mqtt, mqtts, ws or wss URL';
  if (url.username !== '' || url.password !== '') {
    return 'must not hold a user name or password (user:password@): use username and the secret password instead';
  }
  return undefined;
}

function topicPrefixProblem(value: string): string | undefined {
  if (/[+#]/.test(value) || value.includes('\u0000')) return 'must not hold the wildcards + or # (or NUL)';
  if (value.startsWith('/') || value.endsWith('/')) return 'must not start or end with /';
  return undefined;
}

export const MQTT_SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'string',
    required: true,
    secret: false,
    help: 'The MQTT broker: mqtt://host:1883, mqtts://host:8883, or over WebSocket ws://host/mqtt or wss://host/mqtt.',
    problem: brokerUrlProblem,
  },
  {
    name: 'username',
    type: 'string',
    required: false,
    secret: false,
    help: 'The user Notify logs in as, when the broker asks for one.',
  },
  {
    name: 'password',
    type: 'string',
    required: false,
    secret: true,
    help: 'The password of that user.',
  },
  {
    name: 'topicPrefix',
    type: 'string',
    required: false,
    secret: false,
    help: 'The first level of every topic: with notify, states go to notify/notifications/ID, the count to notify/waiting, answers come on notify/notifications/ID/answer.',
    default: 'notify',
    problem: topicPrefixProblem,
  },
  {
    name: 'allowedUserIds',
    type: 'string',
    required: false,
    secret: false,
    help: 'When set, only answers whose "user" is listed here (comma-separated) count; the broker\'s ACLs decide who may publish answers at all.',
  },
  {
    name: 'homeAssistant',
    type: 'boolean',
    required: false,
    secret: false,
    help: 'Publish Home Assistant MQTT discovery documents: a sensor of the waiting count and a button per answer.',
    default: true,
  },
  {
    name: 'caFile',
    type: 'string',
    required: false,
    secret: false,
    help: 'For mqtts or wss with a private certificate authority: the path of its PEM certificate.',
  },
  {
    name: 'rejectUnauthorized',
    type: 'boolean',
    required: false,
    secret: false,
    help: 'Refuse a broker whose TLS certificate does not verify (turn off only for a test broker).',
    default: true,
  },
];

export function topicPrefix(settings: SettingValues): string {
  return optionalString(settings, 'topicPrefix') ?? 'notify';
}

export function homeAssistantOn(settings: SettingValues): boolean {
  return flag(settings, 'homeAssistant', true);
}

/** What mqtt.js connects with: the broker URL and the options these settings give. */
export interface BrokerAddress {
  url: string;
  username?: string;
  password?: string;
  ca?: Buffer;
  rejectUnauthorized: boolean;
}

/** Reads the CA file here, so a missing file is a delivery failure and not a broker crash. */
export function brokerAddress(settings: SettingValues): BrokerAddress {
  const username = optionalString(settings, 'username');
  const password = optionalString(settings, 'password');
  const caFile = optionalString(settings, 'caFile');
  return {
    url: requiredString(settings, 'url'),
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
    ...(caFile !== undefined && { ca: readFileSync(caFile) }),
    rejectUnauthorized: flag(settings, 'rejectUnauthorized', true),
  };
}
