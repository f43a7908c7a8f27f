/** How a message becomes exactly one bounded log line, whatever a client managed to put into it. */
import { showControls } from '../domain/display-controls.js';

/** Characters of one message; a 15,000-character URL is cut here, not written out in full. */
export const MAX_MESSAGE_CHARACTERS = 2000;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\x1b` for a code point up to U+00FF, `\u202e` above, `\u{e0041}` beyond the BMP. */
function escapeCode(char: string): string {
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * Writes line breaks, tabs and every character that changes how text displays (C0 and C1 controls,
 * the line and paragraph separators, direction and invisible characters: src/domain/display-controls.ts)
 * as a visible escape (`\x1b`, `\u2028`), so no line can be forged or read in another order.
 */
export function neutralize(message: string): string {
  return showControls(
    message.replace(/[\n\r\t]/g, (char) => SHORT_ESCAPES[char]!),
    escapeCode,
  );
}

/** At most `max` characters, with a note of how many were cut; a surrogate pair is never split. */
export function truncate(message: string, max = MAX_MESSAGE_CHARACTERS): string {
  if (message.length <= max) return message;
  let end = max;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${message.slice(0, end)}... [${message.length - end} more characters not logged]`;
}
