import { ProgramDisplay, type ToastCommandLine } from './program-display.js';
import type { ToastContent } from './toast-style.js';

/**
 * The text reaches AppleScript as `argv` items, never inside the script, so quotes or backslashes in a
 * title cannot change what runs.
 */
const SCRIPT = [
  'on run argv',
  'display notification (item 2 of argv) with title (item 1 of argv) subtitle (item 3 of argv)',
  'end run',
];

export function macosCommandLine(content: ToastContent): ToastCommandLine {
  const [message, origin = ''] = splitBody(content.body);
  return {
    program: 'osascript',
    args: [...SCRIPT.flatMap((line) => ['-e', line]), '--', content.summary, message, origin],
  };
}

/** The body's last line is `agent · project`: a subtitle on macOS, a second text line on Windows. */
export function splitBody(body: string): [string, string] {
  const cut = body.lastIndexOf('\n');
  return cut < 0 ? [body, ''] : [body.slice(0, cut), body.slice(cut + 1)];
}

export function macosDisplay(): ProgramDisplay {
  return new ProgramDisplay('macOS Notification Center (osascript)', macosCommandLine);
}
