/** How a message becomes exactly one bounded log line, whatever a client managed to put into it. */

import { isHighSurrogate } from '../domain/text.js';

/** Characters of one message; a 15,000-character URL is cut here, not written out in full. */
export const MAX_MESSAGE_CHARACTERS = 2000;

export { neutralize } from '../domain/neutralize.js';

/** At most `max` characters, with a note of how many were cut; a surrogate pair is never split. */
export function truncate(message: string, max = MAX_MESSAGE_CHARACTERS): string {
  if (message.length <= max) return message;
  let end = max;
  if (isHighSurrogate(message.charCodeAt(end - 1))) end--;
  return `${message.slice(0, end)}... [${message.length - end} more characters not logged]`;
}
