import { sendHttp } from '../../http-delivery.js';
import type { DeliveryContext, DeliveryResult, FollowUp } from '../../provider.js';
import { requiredString } from '../../setting-values.js';
import { apiBase, FORM, parsed, RECEIPT, refusal } from './pushover-answers.js';

/**
 * GET /1/receipts/{receipt}.json?token= (pushover.net/api/receipts): whether the person acknowledged
 * the emergency alert, and on which device. The token goes in the query string because the API takes
 * it there only; sendHttp never logs a URL. A receipt Pushover no longer knows (404) or one that
 * expired unacknowledged is `over`: nothing more will come of it.
 */
export async function pollReceipt(receipt: string, { settings, signal }: DeliveryContext): Promise<FollowUp> {
  if (!RECEIPT.test(receipt)) return { kind: 'over' };
  const token = encodeURIComponent(requiredString(settings, 'appToken'));
  const answer = await sendHttp(
    { method: 'GET', url: `${apiBase(settings)}/1/receipts/${receipt}.json?token=${token}` },
    signal,
  );
  if (answer.result.status === 404) return { kind: 'over' };
  if (answer.result.outcome !== 'delivered') return { kind: 'failed', result: refusal(answer) };
  const body = parsed(answer.body);
  if (body?.['status'] !== 1)
    return { kind: 'failed', result: { outcome: 'reject', reason: 'unexpected_answer' } };
  if (body['acknowledged'] === 1) {
    const at = body['acknowledged_at'];
    const device = body['acknowledged_by_device'];
    return {
      kind: 'seen',
      at: typeof at === 'number' && at > 0 ? at * 1000 : Date.now(),
      ...(typeof device === 'string' && device !== '' && { device }),
    };
  }
  return body['expired'] === 1 ? { kind: 'over' } : { kind: 'waiting' };
}

/** POST /1/receipts/{receipt}/cancel.json: the phone stops repeating the alert. */
export async function cancelReceipt(
  receipt: string,
  { settings, signal }: DeliveryContext,
): Promise<DeliveryResult> {
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
