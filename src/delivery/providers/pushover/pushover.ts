import { sendHttp } from '../../http-delivery.js';
import type { ProviderKind } from '../../provider.js';
import { apiBase, FORM, parsed, RECEIPT, refusal } from './pushover-answers.js';
import { messageForm } from './pushover-message.js';
import { cancelReceipt, pollReceipt } from './pushover-receipt.js';
import { PUSHOVER_SETTINGS } from './pushover-settings.js';

export const pushover: ProviderKind = {
  id: 'pushover',
  title: 'Pushover',
  description:
    'A push to the Pushover apps; a critical notification is an emergency alert repeated until acknowledged (shown as seen on the phone), and cancelled when the request ends at the desk. Send-only: Pushover cannot carry an answer back.',
  settings: PUSHOVER_SETTINGS,
  lifecycle: { update: false, clear: true },
  async deliver(operation, context) {
    if (operation.operation === 'clear') {
      // Only an emergency alert has something to take back: the repetition its receipt names.
      const receipt = operation.reference;
      return receipt === undefined ? { outcome: 'delivered' } : cancelReceipt(receipt, context);
    }
    const { settings, signal } = context;
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
  followUp: pollReceipt,
};
