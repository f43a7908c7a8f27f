import { sendHttp } from '../../http-delivery.js';
import type { ProviderKind, SettingDeclaration } from '../../provider.js';
import { optionalString, requiredString } from '../../setting-values.js';
import { adaptiveCardMessage } from './adaptive-card.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'webhookUrl',
    type: 'url',
    required: true,
    secret: true,
    help: 'The URL of a Teams workflow "Post to a channel when a webhook request is received" (in the channel: Workflows); whoever has it can post there. Send-only: Teams cannot answer through it.',
  },
  {
    name: 'clickUrl',
    type: 'url',
    required: false,
    secret: false,
    help: "Opened by the card's Open button.",
  },
];

export const teams: ProviderKind = {
  id: 'teams',
  title: 'Microsoft Teams',
  description:
    'Send-only: an Adaptive Card in a Teams channel through a Workflows webhook; it is not edited, cleared or answered there.',
  settings: SETTINGS,
  lifecycle: { update: false, clear: false },
  async deliver(operation, { settings, signal }) {
    const body = JSON.stringify(
      adaptiveCardMessage(operation.notification, optionalString(settings, 'clickUrl')),
    );
    const answer = await sendHttp(
      {
        method: 'POST',
        url: requiredString(settings, 'webhookUrl'),
        headers: { 'content-type': 'application/json', 'idempotency-key': operation.idempotencyKey },
        body,
      },
      signal,
    );
    return answer.result;
  },
};
