import type { Priority } from '../../../domain/priority.js';
import { bodyText } from '../../body-text.js';
import type { OutboundNotification, SettingValues } from '../../provider.js';
import { optionalInteger, optionalString, requiredString } from '../../setting-values.js';
import { MAX_EXPIRE_SECONDS, MIN_RETRY_SECONDS } from './pushover-settings.js';

/**
 * Pushover's priorities (pushover.net/api#priority): -1 quiet (no sound or vibration), 0 normal, 1
 * high (bypasses the person's quiet hours), 2 emergency (repeated every `retry` seconds until
 * acknowledged or `expire` passes). -2 (no alert at all) is left unused: a low notification still shows.
 */
export const PUSHOVER_PRIORITY: Readonly<Record<Priority, -1 | 0 | 1 | 2>> = {
  low: -1,
  normal: 0,
  high: 1,
  critical: 2,
};

const DEFAULT_RETRY_SECONDS = 60;
const DEFAULT_EXPIRE_SECONDS = 3600;
/** Pushover's limits: a 250-character title and a 1024-character message. */
const MAX_TITLE = 250;
const MAX_MESSAGE = 1024;

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The form fields of POST /1/messages.json for one notification (tokens included: the body, never a URL). */
export function messageForm(n: OutboundNotification, settings: SettingValues): URLSearchParams {
  const priority = PUSHOVER_PRIORITY[n.priority];
  const form = new URLSearchParams({
    token: requiredString(settings, 'appToken'),
    user: requiredString(settings, 'userKey'),
    title: clip(n.title, MAX_TITLE),
    message: clip(bodyText(n), MAX_MESSAGE),
    priority: String(priority),
    timestamp: String(Math.floor(Date.parse(n.createdAt) / 1000)),
  });
  for (const name of ['device', 'sound'] as const) {
    const value = optionalString(settings, name);
    if (value !== undefined) form.set(name, value);
  }
  const clickUrl = optionalString(settings, 'clickUrl');
  if (clickUrl !== undefined) {
    form.set('url', clickUrl);
    form.set('url_title', 'Open in Notify');
  }
  if (priority === 2) {
    const retry = optionalInteger(settings, 'retry') ?? DEFAULT_RETRY_SECONDS;
    const expire = optionalInteger(settings, 'expire') ?? DEFAULT_EXPIRE_SECONDS;
    form.set('retry', String(Math.max(MIN_RETRY_SECONDS, retry)));
    form.set('expire', String(Math.min(MAX_EXPIRE_SECONDS, Math.max(MIN_RETRY_SECONDS, expire))));
  }
  return form;
}
