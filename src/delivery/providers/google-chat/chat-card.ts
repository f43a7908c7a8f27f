import { senderLine } from '../../../domain/sender-line.js';
import { choicesLine } from '../../choices-line.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * The body of a Google Chat incoming webhook message (spaces.messages.create): a `cardsV2` card with
 * a header and one section of widgets, plain `fallbackText` for the phone's notification, and a thread
 * key so that every lifecycle of one notification (its key, else its id) lands in the same thread.
 */

/** textParagraph text is read as Chat's HTML subset, so an agent's `<b>` or `<a>` is shown, not obeyed. */
export function escapeChatHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function paragraph(text: string): unknown {
  return { textParagraph: { text: escapeChatHtml(text) } };
}

export function threadKey(notification: OutboundNotification): string {
  return notification.key ?? notification.id;
}

export function chatCardMessage(notification: OutboundNotification, clickUrl?: string): unknown {
  const choices = choicesLine(notification);
  const widgets = [
    ...(notification.message === undefined ? [] : [paragraph(notification.message)]),
    ...(choices === undefined ? [] : [paragraph(choices)]),
    paragraph(`${notification.priority} priority · ${notification.type}`),
    ...(clickUrl === undefined
      ? []
      : [{ buttonList: { buttons: [{ text: 'Open', onClick: { openLink: { url: clickUrl } } }] } }]),
  ];
  return {
    fallbackText: notification.title,
    cardsV2: [
      {
        cardId: `notify-${notification.id}`,
        card: {
          header: { title: notification.title, subtitle: senderLine(notification) },
          sections: [{ widgets }],
        },
      },
    ],
    thread: { threadKey: threadKey(notification) },
  };
}
