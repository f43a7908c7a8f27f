import { sendHttp } from '../../http-delivery.js';
import type { DeliveryResult } from '../../provider.js';
import type { FixedReasonCode } from '../../reason-codes.js';

/**
 * One call of Slack's Web API (https://docs.slack.dev/reference/methods): a JSON POST with the token
 * as a bearer. Slack answers HTTP 200 with `ok: false` and an error name for most failures, so those
 * are classified here; a 429 carries Retry-After and is retried after it like any HTTP delivery.
 */

export const SLACK_API_URL = 'https://slack.com/api';

export type SlackCall =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; result: Exclude<DeliveryResult, { outcome: 'delivered' }> };

const CREDENTIAL_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'not_allowed_token_type',
]);
const TRANSIENT_ERRORS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);
const NAMED_ERRORS: Readonly<Record<string, FixedReasonCode>> = {
  missing_scope: 'missing_scope',
  channel_not_found: 'channel_not_found',
  not_in_channel: 'not_in_channel',
  message_not_found: 'message_not_found',
};

/** The reason code of an `ok: false` error name: the name itself is never logged (it is Slack's text). */
function errorResult(error: unknown): Exclude<DeliveryResult, { outcome: 'delivered' }> {
  const name = typeof error === 'string' ? error : '';
  if (CREDENTIAL_ERRORS.has(name)) return { outcome: 'reject', reason: 'credentials_refused' };
  if (TRANSIENT_ERRORS.has(name)) return { outcome: 'retry', reason: 'service_unavailable' };
  return { outcome: 'reject', reason: NAMED_ERRORS[name] ?? 'service_refused' };
}

export async function callSlack(
  apiUrl: string,
  method: string,
  token: string,
  payload: Record<string, unknown>,
  signal: AbortSignal,
): Promise<SlackCall> {
  const answer = await sendHttp(
    {
      method: 'POST',
      url: `${apiUrl.replace(/\/+$/, '')}/${method}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(payload),
    },
    signal,
  );
  if (answer.result.outcome !== 'delivered') return { ok: false, result: answer.result };
  let body: unknown;
  try {
    body = JSON.parse(answer.body ?? '');
  } catch {
    return { ok: false, result: { outcome: 'retry', reason: 'unexpected_answer' } };
  }
  if (typeof body !== 'object' || body === null) {
    return { ok: false, result: { outcome: 'retry', reason: 'unexpected_answer' } };
  }
  const fields = body as Record<string, unknown>;
  return fields['ok'] === true
    ? { ok: true, body: fields }
    : { ok: false, result: errorResult(fields['error']) };
}
