import { sendHttp, type HttpAnswer } from '../../http-delivery.js';
import type { DeliveryResult, ProviderKind, SettingValues } from '../../provider.js';
import { requiredString } from '../../setting-values.js';
import { messageForm } from './pushover-message.js';
import { PUSHOVER_SETTINGS } from './pushover-settings.js';

/** A receipt as Pushover issues them (pushover.net/api/receipts): 30 letters and digits. */
const RECEIPT = /^[A-Za-z0-9]{1,64}$/;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function apiBase(settings: SettingValues): string {
  return requiredString(settings, 'apiUrl').replace(/\/+$/, '');
}

function parsed(body: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body ?? '');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pushover answers a bad app token or user key with 400 and `"token": "invalid"` or `"user":
 * "invalid"` (pushover.net/api#response): said as `credentials_refused`, not a bare http_400.
 */
function refusal(answer: HttpAnswer): DeliveryResult {
  const body = parsed(answer.body);
  if (answer.result.outcome === 'reject' && (body?.['token'] === 'invalid' || body?.['user'] === 'invalid'))
    return {
      outcome: 'reject',
      reason: 'credentials_refused',
      ...(answer.result.status !== undefined && { status: answer.result.status }),
    };
  return answer.result;
}

export const pushover: ProviderKind = {
  id: 'pushover',
  title: 'Pushover',
  description:
    'A push to the Pushover apps; a critical notification is an emergency alert repeated until acknowledged, and cancelled when the request ends at the desk.',
  settings: PUSHOVER_SETTINGS,
  lifecycle: { update: false, clear: true },
  async deliver(operation, { settings, signal }) {
    if (operation.operation === 'clear') {
      // Only an emergency alert has something to take back: the repetition its receipt names.
      const receipt = operation.reference;
      if (receipt === undefined) return { outcome: 'delivered' };
      if (!RECEIPT.test(receipt)) return { outcome: 'reject', reason: 'reference_missing' };
      const answer = await sendHttp(
        {
          method: 'POST',
          url: `${apiBase(settings)}/1/receipts/${receipt}/cancel.json`,
          headers: FORM,
          body: new URLSearchParams({ token: requiredString(settings, 'appToken') }).toString(),
        },
        signal,
      );
      return refusal(answer);
    }
    const answer = await sendHttp(
      {
        method: 'POST',
        url: `${apiBase(settings)}/1/messages.json`,
        headers: FORM,
        body: messageForm(operation.notification, settings).toString(),
      },
      signal,
    );
    if (answer.result.outcome !== 'delivered') return refusal(answer);
    const body = parsed(answer.body);
    if (body?.['status'] !== 1) return { outcome: 'reject', reason: 'unexpected_answer' };
    const receipt = body['receipt'];
    return typeof receipt === 'string' && RECEIPT.test(receipt)
      ? { ...answer.result, reference: receipt }
      : answer.result;
  },
};
