import { chatMessage } from '../../chat-message.js';
import { encodeAnswerPayload } from '../../../domain/channel-answer.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * A notification as a Telegram message, in plain text (no parse mode, so nothing in it is read as
 * markup): the title, the text, how it ended, and while it is open an inline keyboard with one button
 * per action whose callback_data is the answer payload (at most 52 of the 64 bytes Telegram allows).
 */

/** Telegram takes 4096 characters of text; the body gives way first. */
const MAX_BODY = 3800;

export interface InlineButton {
  text: string;
  callback_data: string;
}

export interface TelegramMessage {
  text: string;
  reply_markup: { inline_keyboard: InlineButton[][] };
}

function clip(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_BODY ? text : `${chars.slice(0, MAX_BODY - 1).join('')}…`;
}

export function telegramMessage(notification: OutboundNotification): TelegramMessage {
  const shown = chatMessage(notification);
  const parts = [shown.title, clip(shown.text)];
  if (shown.statusLine !== undefined) parts.push(shown.statusLine);
  return {
    text: parts.join('\n\n'),
    reply_markup: {
      // An empty keyboard on an edit takes the buttons away.
      inline_keyboard: shown.offered.map((action) => [
        {
          text: action.label,
          callback_data: encodeAnswerPayload(notification.id, notification.revision!, action.index),
        },
      ]),
    },
  };
}
