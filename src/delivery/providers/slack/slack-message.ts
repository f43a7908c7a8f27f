import { encodeAnswerPayload } from '../../../domain/channel-answer.js';
import { senderLine } from '../../../domain/sender-line.js';
import { answerButtons, fitText, statusLine } from '../../channel-message.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * A notification as a Slack message in Block Kit (https://docs.slack.dev/reference/block-kit): the
 * title as a header, the message as plain text (never mrkdwn, so a command shows exactly as it runs),
 * who sent it, what became of it, and one button per action while it can be answered. `text` is the
 * fallback Slack shows in notifications and screen readers. Pure.
 */

export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const BUTTON_LABEL_MAX = 75;
const FALLBACK_MAX = 4000;

/** The action_id of the button for the action at `index`; unique within the actions block. */
export function buttonActionId(index: number): string {
  return `notify_answer_${index}`;
}

const plain = (text: string) => ({ type: 'plain_text', text, emoji: false });

export function slackMessage(notification: OutboundNotification, offerButtons: boolean): SlackMessage {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: plain(fitText(notification.title, HEADER_MAX)) },
  ];
  if (notification.message !== undefined && notification.message !== '') {
    blocks.push({ type: 'section', text: plain(fitText(notification.message, SECTION_MAX)) });
  }
  blocks.push({ type: 'context', elements: [plain(fitText(senderLine(notification), HEADER_MAX))] });
  const status = statusLine(notification);
  if (status !== undefined) blocks.push({ type: 'section', text: plain(status) });
  const buttons = offerButtons ? answerButtons(notification) : [];
  if (buttons.length > 0) {
    blocks.push({
      type: 'actions',
      block_id: 'notify_answers',
      elements: buttons.map((button) => ({
        type: 'button',
        action_id: buttonActionId(button.index),
        text: plain(fitText(button.label, BUTTON_LABEL_MAX)),
        value: encodeAnswerPayload(notification.id, notification.revision!, button.index),
      })),
    });
  }
  const lines = [notification.title, notification.message, senderLine(notification), status];
  const text = lines.filter((line) => line !== undefined && line !== '').join('\n');
  return { text: fitText(text, FALLBACK_MAX), blocks };
}
