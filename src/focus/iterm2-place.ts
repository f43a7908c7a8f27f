import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';

type Iterm2Place = Extract<Place, { kind: 'iterm2' }>;

/** Selects the session whose unique id the script gets as its argument: the id never enters the code. */
const SELECT_SESSION = [
  'on run argv',
  'set wanted to item 1 of argv',
  'tell application "iTerm2"',
  'repeat with w in windows',
  'repeat with t in tabs of w',
  'repeat with s in sessions of t',
  'if unique id of s is wanted then',
  'select w',
  'select t',
  'select s',
  'activate',
  'return "focused"',
  'end if',
  'end repeat',
  'end repeat',
  'end repeat',
  'end tell',
  'return "gone"',
  'end run',
];

/** `$ITERM_SESSION_ID` is `w0t0p0:<unique id>`; AppleScript knows the session by the part after the colon. */
export async function focusIterm2(place: Iterm2Place, run: RunProgram): Promise<void> {
  const uniqueId = place.session.slice(place.session.indexOf(':') + 1);
  const script = SELECT_SESSION.flatMap((line) => ['-e', line]);
  const done = await run('osascript', [...script, uniqueId]);
  if (done.missing) throw new FocusRefusedError('iTerm2 can be focused only on macOS (osascript)');
  if (!done.ok) throw new FocusRefusedError(`iTerm2 did not answer: ${firstLine(done.stderr)}`);
  if (done.stdout.trim() !== 'focused') throw new FocusRefusedError(`the iTerm2 session ${uniqueId} is gone`);
}
