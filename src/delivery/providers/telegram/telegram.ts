import type { DeliveryResult, ProviderKind, SettingDeclaration } from '../../provider.js';
import { callBot, DEFAULT_API_URL } from './bot-api.js';
import { telegramMessage } from './telegram-message.js';
import { listenForPresses } from './telegram-updates.js';

const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: 'botToken',
    type: 'string',
    required: true,
    secret: true,
    help: 'The bot token @BotFather gives for /newbot (123456789:AA...).',
    problem: (value) =>
      /^\d+:[A-Za-z0-9_-]+$/.test(value.trim())
        ? undefined
        : 'is not a bot token: @BotFather gives one like 123456789:AA... (digits, a colon, then letters)',
  },
  {
    name: 'chatId',
    type: 'string',
    required: true,
    secret: false,
    help: 'Where the bot posts: your own user id for a private chat with the bot, a group id (negative) or @channelname.',
    problem: (value) =>
      /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/.test(value.trim())
        ? undefined
        : 'is not a chat id: a number (negative for a group) or @channelname',
  },
  {
    name: 'allowedUserIds',
    type: 'string',
    required: false,
    secret: false,
    help: 'The Telegram user ids whose button presses count, comma-separated; in a private chat its own user always counts.',
  },
  {
    name: 'apiUrl',
    type: 'url',
    required: false,
    secret: false,
    help: 'The Bot API server: Telegram’s, or a self-hosted telegram-bot-api.',
    default: DEFAULT_API_URL,
  },
];

/** What a delivered sendMessage returns, kept as `<chat id>:<message id>` for the edits. */
function referenceOf(result: unknown): string | undefined {
  const message = result as { message_id?: unknown; chat?: { id?: unknown } } | null;
  const messageId = message?.message_id;
  const chatId = message?.chat?.id;
  if (typeof messageId !== 'number' || (typeof chatId !== 'number' && typeof chatId !== 'string'))
    return undefined;
  return `${chatId}:${messageId}`;
}

function readReference(reference: string): { chat_id: string; message_id: number } | undefined {
  const match = /^(-?\d+|@\w+):(\d+)$/.exec(reference);
  return match ? { chat_id: match[1]!, message_id: Number(match[2]) } : undefined;
}

export const telegram: ProviderKind = {
  id: 'telegram',
  title: 'Telegram',
  description:
    'A Telegram bot posts to a chat with a button per action, edits the message when the request changes or ends, and takes the allowed people’s answers.',
  settings: SETTINGS,
  // The message is edited to say how it ended, never taken away: the chat keeps the record.
  lifecycle: { update: true, clear: false },
  async deliver(operation, { settings, signal }): Promise<DeliveryResult> {
    const message = telegramMessage(operation.notification);
    if (operation.operation === 'send') {
      const reply = await callBot(
        settings,
        'sendMessage',
        { chat_id: settings['chatId'], ...message, link_preview_options: { is_disabled: true } },
        signal,
      );
      if (!reply.ok) return reply.failure;
      const reference = referenceOf(reply.result);
      return reference === undefined ? { outcome: 'delivered' } : { outcome: 'delivered', reference };
    }
    const target = operation.reference === undefined ? undefined : readReference(operation.reference);
    if (target === undefined) return { outcome: 'reject', reason: 'reference_missing' };
    const reply = await callBot(
      settings,
      'editMessageText',
      { ...target, ...message, link_preview_options: { is_disabled: true } },
      signal,
    );
    // An edit that changes nothing (a repeat of the same update) is what was wanted.
    if (!reply.ok && reply.failure.status === 400 && reply.description.includes('message is not modified'))
      return { outcome: 'delivered', status: 400 };
    return reply.ok ? { outcome: 'delivered' } : reply.failure;
  },
  listen: listenForPresses,
};
