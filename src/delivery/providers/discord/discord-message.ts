import { encodeAnswerPayload } from '../../../domain/channel-answer.js';
import { senderLine } from '../../../domain/sender-line.js';
import { answerButtons, fitText, statusLine } from '../../channel-message.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * A notification as a Discord message (https://discord.com/developers/docs/resources/message): an
 * embed with the title, the message (Markdown characters escaped, so a command shows as it runs), who
 * sent it and what became of it, and an action row of buttons (`custom_id` the answer payload) while
 * it can be answered; an edit sends an empty row list, which removes them. Mentions never ping. Pure.
 */

const TITLE_MAX = 256;
const DESCRIPTION_MAX = 4096;
const FOOTER_MAX = 2048;
const LABEL_MAX = 80;
const ACTION_ROW = 1;
const BUTTON = 2;
const PRIMARY = 1;
const SECONDARY = 2;

/** Discord Markdown read literally: each character that formats is escaped with a backslash. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()<:@-]/g, (char) => `\\${char}`);
}

export function discordMessage(
  notification: OutboundNotification,
  offerButtons: boolean,
): Record<string, unknown> {
  const status = statusLine(notification);
  const description = [
    notification.message === undefined ? '' : escapeMarkdown(notification.message),
    status === undefined ? '' : `**${escapeMarkdown(status)}**`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const buttons = offerButtons ? answerButtons(notification) : [];
  return {
    embeds: [
      {
        title: fitText(notification.title, TITLE_MAX),
        ...(description !== '' && { description: fitText(description, DESCRIPTION_MAX) }),
        footer: { text: fitText(senderLine(notification), FOOTER_MAX) },
      },
    ],
    components:
      buttons.length === 0
        ? []
        : [
            {
              type: ACTION_ROW,
              components: buttons.map((button) => ({
                type: BUTTON,
                style: button.index === 0 ? PRIMARY : SECONDARY,
                label: fitText(button.label, LABEL_MAX),
                custom_id: encodeAnswerPayload(notification.id, notification.revision!, button.index),
              })),
            },
          ],
    allowed_mentions: { parse: [] },
  };
}
