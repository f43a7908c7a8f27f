import { answeredLine } from '../domain/channel-answer.js';
import { answersWithheld, TERMINAL_ONLY } from '../domain/display-controls.js';
import type { OutboundNotification } from './provider.js';
import { isHighSurrogate } from '../domain/text.js';

/**
 * What a chat channel's message says beyond the notification's own text (Slack, Discord): whether it
 * offers answer buttons, and the line that says what became of the request. Pure.
 */

/** One answer button: its label and the action's position, which the button's payload names. */
export interface ChannelButton {
  label: string;
  index: number;
}

/**
 * The buttons to show: only while the request is active, bound to a revision, and its text holds no
 * characters that change how it displays (those are answered in the terminal).
 */
export function answerButtons(notification: OutboundNotification): ChannelButton[] {
  const actions = notification.actions ?? [];
  if (notification.status !== 'active' || notification.revision === undefined) return [];
  if (actions.length === 0 || answersWithheld(notification)) return [];
  return actions.map((action, index) => ({ label: action.label, index }));
}

/** "Answered “Allow” on Slack", "Resolved", "Dismissed", or why there are no buttons; else undefined. */
export function statusLine(notification: OutboundNotification): string | undefined {
  const answer = notification.answer;
  if (answer !== undefined) {
    const label = notification.actions?.find((action) => action.id === answer.action)?.label ?? answer.action;
    return answeredLine(label, answer.surface);
  }
  if (notification.status === 'resolved') return 'Resolved';
  if (notification.status === 'dismissed') return 'Dismissed';
  if ((notification.actions ?? []).length > 0 && answersWithheld(notification)) {
    return TERMINAL_ONLY.charAt(0).toUpperCase() + TERMINAL_ONLY.slice(1);
  }
  return undefined;
}

/**
 * Cuts text to a service's field limit, marking the cut. Limits are taken in UTF-16 units, the stricter
 * count (a service counting characters takes it too), and an emoji is never cut in half.
 */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}
