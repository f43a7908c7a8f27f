import { senderLine } from '../../../domain/sender-line.js';
import { choicesLine } from '../../choices-line.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * The message a Teams Workflows webhook ("Post to a channel when a webhook request is received") posts:
 * one attachment of content type application/vnd.microsoft.card.adaptive holding an Adaptive Card.
 * Version 1.4, which every Teams client renders; only TextBlocks and Action.OpenUrl, since a webhook
 * card cannot carry an answer back.
 */

export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

interface TextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  size?: 'Medium';
  weight?: 'Bolder';
  color?: 'Attention' | 'Warning';
  isSubtle?: true;
  spacing?: 'Small';
}

function textBlock(text: string, style: Omit<TextBlock, 'type' | 'text' | 'wrap'> = {}): TextBlock {
  return { type: 'TextBlock', text, wrap: true, ...style };
}

function titleColor(notification: OutboundNotification): Pick<TextBlock, 'color'> {
  if (notification.priority === 'critical') return { color: 'Attention' };
  return notification.priority === 'high' ? { color: 'Warning' } : {};
}

export function adaptiveCardMessage(notification: OutboundNotification, clickUrl?: string): unknown {
  const choices = choicesLine(notification);
  const body = [
    textBlock(notification.title, { size: 'Medium', weight: 'Bolder', ...titleColor(notification) }),
    ...(notification.message === undefined ? [] : [textBlock(notification.message)]),
    ...(choices === undefined ? [] : [textBlock(choices)]),
    textBlock(`${senderLine(notification)} · ${notification.priority} priority`, {
      isSubtle: true,
      spacing: 'Small',
    }),
  ];
  const content = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(clickUrl === undefined
      ? {}
      : { actions: [{ type: 'Action.OpenUrl', title: 'Open', url: clickUrl }] }),
  };
  return {
    type: 'message',
    attachments: [{ contentType: ADAPTIVE_CARD_CONTENT_TYPE, contentUrl: null, content }],
  };
}
