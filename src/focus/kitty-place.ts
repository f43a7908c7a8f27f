import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';

type KittyPlace = Extract<Place, { kind: 'kitty' }>;

/** `kitten @` talks to the kitty instance of the window: its listen address when known. */
const remote = (place: KittyPlace): string[] => ['@', ...(place.listenOn ? ['--to', place.listenOn] : [])];

export async function focusKitty(place: KittyPlace, run: RunProgram): Promise<void> {
  const done = await run('kitten', [...remote(place), 'focus-window', '--match', `id:${place.window}`]);
  if (done.missing) throw new FocusRefusedError('kitten (kitty) is not installed where Notify runs');
  if (!done.ok)
    throw new FocusRefusedError(`kitty did not focus window ${place.window}: ${firstLine(done.stderr)}`);
}

interface KittyOsWindow {
  is_focused?: boolean;
  tabs?: { is_focused?: boolean; windows?: { id?: number; is_focused?: boolean }[] }[];
}

/** kitty's `ls`: the window is the focused one of the focused tab of the focused OS window. */
export async function kittyHasFocus(place: KittyPlace, run: RunProgram): Promise<boolean> {
  const listed = await run('kitten', [...remote(place), 'ls']);
  if (!listed.ok) return false;
  try {
    const windows = JSON.parse(listed.stdout) as KittyOsWindow[];
    return windows.some(
      (os) =>
        os.is_focused === true &&
        (os.tabs ?? []).some(
          (tab) =>
            tab.is_focused === true &&
            (tab.windows ?? []).some((w) => w.id === place.window && w.is_focused === true),
        ),
    );
  } catch {
    return false;
  }
}
