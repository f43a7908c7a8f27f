import { chatMessage, escapeHtml } from '../../chat-message.js';
import type { OutboundNotification } from '../../provider.js';

/**
 * A notification as an `m.room.message`: a plain `body` and an HTML `formatted_body`, and under
 * `org.notify.answer` what an answer to it names (the notification, the revision it shows, and the
 * actions with the reply word and reaction that choose each), so a reply or reaction to this event,
 * or to its latest edit, finds what it answers.
 */

export const ANSWER_FIELD = 'org.notify.answer';

/** Reactions of the first two actions: ✅ for the first (allow-like), ❌ for the second (deny-like). */
const REACTIONS = ['✅', '❌'];

export interface OfferedAction {
  index: number;
  id: string;
  label: string;
  reaction?: string;
}

export interface AnswerField {
  notification: string;
  revision: number;
  actions: OfferedAction[];
}

export function matrixContent(notification: OutboundNotification): Record<string, unknown> {
  const shown = chatMessage(notification);
  const actions = notification.actions ?? [];
  const offered: OfferedAction[] = shown.offered.map((action) => ({
    index: action.index,
    id: actions[action.index]!.id,
    label: action.label,
    ...(REACTIONS[action.index] !== undefined && { reaction: REACTIONS[action.index] }),
  }));
  const how =
    offered.length === 0
      ? undefined
      : `Reply with ${offered
          .map((action) => `“${action.label}”${action.reaction ? ` or react ${action.reaction}` : ''}`)
          .join(', ')}`;
  const tail = shown.statusLine ?? how;
  const body = [shown.title, shown.text, ...(tail === undefined ? [] : [tail])].join('\n\n');
  const html = [
    `<strong>${escapeHtml(shown.title)}</strong>`,
    escapeHtml(shown.text).replace(/\n/g, '<br>'),
    ...(tail === undefined ? [] : [`<em>${escapeHtml(tail)}</em>`]),
  ].join('<br><br>');
  const field: AnswerField | undefined =
    offered.length === 0
      ? undefined
      : { notification: notification.id, revision: notification.revision!, actions: offered };
  return {
    msgtype: 'm.text',
    body,
    format: 'org.matrix.custom.html',
    formatted_body: html,
    ...(field !== undefined && { [ANSWER_FIELD]: field }),
  };
}
