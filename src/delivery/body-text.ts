import { senderLine } from '../domain/sender-line.js';
import type { OutboundNotification } from './provider.js';

/**
 * A message service's text: the message (when the route includes it), then who sent it on a line of
 * its own, as the toast shows it; the title goes in the service's own title field. A blank line keeps
 * the two apart where the text is read as Markdown.
 */
export function bodyText(notification: OutboundNotification): string {
  const sender = senderLine(notification);
  return notification.message === undefined ? sender : `${notification.message}\n\n${sender}`;
}
