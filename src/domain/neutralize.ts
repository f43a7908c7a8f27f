/**
 * Text from elsewhere made safe to show on a terminal or in one log line: pure, so the log, notifyd and
 * the `notify` client (which never loads server code) share it.
 */
import { showControls } from './display-controls.js';

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\x1b` for a code point up to U+00FF, `\u202e` above, `\u{e0041}` beyond the BMP. */
function escapeCode(char: string): string {
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * Writes line breaks, tabs and every character that changes how text displays (C0 and C1 controls,
 * the line and paragraph separators, direction and invisible characters: display-controls.ts) as a
 * visible escape (`\x1b`, `\u2028`), so no line can be forged or read in another order.
 */
export function neutralize(message: string): string {
  return showControls(
    message.replace(/[\n\r\t]/g, (char) => SHORT_ESCAPES[char]!),
    escapeCode,
  );
}
