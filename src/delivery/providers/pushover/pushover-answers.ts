import type { HttpAnswer } from '../../http-delivery.js';
import type { DeliveryResult, SettingValues } from '../../provider.js';
import { requiredString } from '../../setting-values.js';

/** A receipt as Pushover issues them (pushover.net/api/receipts): 30 letters and digits. */
export const RECEIPT = /^[A-Za-z0-9]{1,64}$/;
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function apiBase(settings: SettingValues): string {
  return requiredString(settings, 'apiUrl').replace(/\/+$/, '');
}

/** The JSON object Pushover answers with, or undefined when the body is something else. */
export function parsed(body: string | undefined): Record<string, unknown> | undefined {
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
export function refusal(answer: HttpAnswer): DeliveryResult {
  const body = parsed(answer.body);
  if (answer.result.outcome === 'reject' && (body?.['token'] === 'invalid' || body?.['user'] === 'invalid'))
    return {
      outcome: 'reject',
      reason: 'credentials_refused',
      ...(answer.result.status !== undefined && { status: answer.result.status }),
    };
  return answer.result;
}
