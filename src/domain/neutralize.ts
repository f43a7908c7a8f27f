/**
 * Text from elsewhere made safe to show on a terminal or in one log line: pure, so the log, notifyd and
 * the `notify` client (which never loads server code) share it.
 */

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * C0 and C1 controls (escape sequences, NEL U+0085), DEL, the Unicode line and paragraph separators
 * (U+2028, U+2029) and the bidirectional controls that make a viewer show text in another order.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Writes every unsafe character as a visible escape (`\x1b`, `\u2028`), so no line can be forged. */
export function neutralize(message: string): string {
  return message.replace(UNSAFE, (char) => {
    const short = SHORT_ESCAPES[char];
    if (short) return short;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
