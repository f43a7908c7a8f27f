import { answeredLine } from '../domain/channel-answer.js';
import { answersWithheld, showControls, TERMINAL_ONLY } from '../domain/display-controls.js';
import { bodyText } from './body-text.js';
import type { OutboundNotification } from './provider.js';

/**
 * What a chat channel that carries answers (Telegram, Matrix) shows of a notification: its title and
 * text with every display-control character written visibly, the actions it offers as buttons while
 * the request is open, and one line saying how it ended.
 */

export interface ChatMessage {
  title: string;
  text: string;
  /** The buttons: each action with its position, which the button's payload names. */
  offered: { index: number; label: string }[];
  /** How the request stands when it offers no buttons: answered, resolved, dismissed, terminal only. */
  statusLine?: string;
}

function endLine(notification: OutboundNotification): string | undefined {
  const { answer, actions } = notification;
  if (answer !== undefined) {
    const label = actions?.find((action) => action.id === answer.action)?.label ?? answer.action;
    return answeredLine(showControls(label), answer.surface);
  }
  if (notification.status === 'resolved') return 'Resolved';
  if (notification.status === 'dismissed') return 'Dismissed';
  return undefined;
}

export function chatMessage(notification: OutboundNotification): ChatMessage {
  const shown = { title: showControls(notification.title), text: showControls(bodyText(notification)) };
  const ended = endLine(notification);
  if (ended !== undefined) return { ...shown, offered: [], statusLine: ended };
  const actions = notification.actions ?? [];
  if (actions.length === 0 || notification.revision === undefined) return { ...shown, offered: [] };
  // A request whose text hides how it runs is answered in the terminal only (display-controls.ts).
  if (answersWithheld(notification)) {
    return { ...shown, offered: [], statusLine: TERMINAL_ONLY[0]!.toUpperCase() + TERMINAL_ONLY.slice(1) };
  }
  return { ...shown, offered: actions.map((action, index) => ({ index, label: action.label })) };
}

/** Text for an HTML body: `&`, `<` and `>` escaped (and `"` for attribute safety). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
