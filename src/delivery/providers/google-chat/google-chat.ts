import { sendHttp } from '../../http-delivery.js';
import type { ProviderKind, SettingDeclaration } from '../../provider.js';
import { optionalString, requiredString } from '../../setting-values.js';
import { chatCardMessage } from './chat-card.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'webhookUrl',
    type: 'url',
    required: true,
    secret: true,
    help: 'The incoming webhook URL of a Google Chat space (the space menu: Apps & integrations, Webhooks); its key and token let anyone post there. Send-only: Chat cannot answer through it.',
  },
  {
    name: 'clickUrl',
    type: 'url',
    required: false,
    secret: false,
    help: "Opened by the card's Open button.",
  },
];

/** Replies to the notification's thread when one exists, else starts it (a plain create ignores the key). */
function threadedUrl(webhookUrl: string): string {
  try {
    const url = new URL(webhookUrl);
    url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    return url.href;
  } catch {
    return webhookUrl;
  }
}

/** The created message's resource name (spaces/…/messages/…), kept as the delivery's reference. */
function messageName(body: string | undefined): string | undefined {
  try {
    const name = (JSON.parse(body ?? '') as { name?: unknown }).name;
    return typeof name === 'string' && /^spaces\/[^/]+\/messages\/[^/]+$/.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

export const googleChat: ProviderKind = {
  id: 'google-chat',
  title: 'Google Chat',
  description:
    'Send-only: a card in a Google Chat space through its incoming webhook, one thread per notification; it is not edited, cleared or answered there.',
  settings: SETTINGS,
  lifecycle: { update: false, clear: false },
  async deliver(operation, { settings, signal }) {
    const answer = await sendHttp(
      {
        method: 'POST',
        url: threadedUrl(requiredString(settings, 'webhookUrl')),
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify(chatCardMessage(operation.notification, optionalString(settings, 'clickUrl'))),
      },
      signal,
    );
    if (answer.result.outcome !== 'delivered') return answer.result;
    const reference = messageName(answer.body);
    return reference === undefined ? answer.result : { ...answer.result, reference };
  },
};
