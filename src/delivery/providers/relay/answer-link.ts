import { sendHttp } from '../../http-delivery.js';
import type { AnswerLink, OutboundNotification, SettingValues } from '../../provider.js';
import { flag, requiredString } from '../../setting-values.js';
import { relayTarget } from './relay-address.js';

/**
 * Asks the paired relay for the single-use answer link of one revision (docs/relay-protocol.md "Answer
 * links"). 'later': the relay does not hold that revision yet (its own delivery is still on the way) or
 * could not be reached; 'none': it will not hand one out (ended, answered, replaced, answered in the
 * terminal only, or the relay refuses us).
 */
export type AnswerLinkAnswer = AnswerLink | 'later' | 'none';

const TOKEN = /^nrt_[A-Za-z0-9_-]{43}$/;

function readLink(body: string | undefined): AnswerLink | undefined {
  try {
    const value = JSON.parse(body ?? '') as Record<string, unknown>;
    const { url, token } = value;
    if (typeof url !== 'string' || typeof token !== 'string' || !TOKEN.test(token)) return undefined;
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? { url, token } : undefined;
  } catch {
    return undefined;
  }
}

export async function requestAnswerLink(
  settings: SettingValues,
  notification: OutboundNotification,
  signal: AbortSignal,
): Promise<AnswerLinkAnswer> {
  if (notification.revision === undefined) return 'none';
  const target = await relayTarget(requiredString(settings, 'url'), flag(settings, 'allowPrivate', false));
  if (!target.ok) return 'none';
  const base = requiredString(settings, 'url').replace(/\/+$/, '');
  const answer = await sendHttp(
    {
      method: 'POST',
      url: `${base}/v1/notifications/${encodeURIComponent(notification.id)}/answer-link`,
      headers: {
        authorization: `Bearer ${requiredString(settings, 'credential')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ revision: notification.revision }),
    },
    signal,
    { dispatcher: target.dispatcher },
  );
  const { result } = answer;
  if (result.outcome === 'delivered') return readLink(answer.body) ?? 'none';
  if (result.outcome === 'retry' || result.status === 404) return 'later';
  return 'none';
}
