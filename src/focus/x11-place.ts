import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';
import { sendActivateMessage } from './x11-client-message.js';

type X11Place = Extract<Place, { kind: 'x11' }>;

const hex = (window: number): string => `0x${window.toString(16)}`;
const displayEnv = (place: X11Place): Record<string, string> =>
  place.display ? { DISPLAY: place.display } : {};

/**
 * EWMH activation: a `_NET_ACTIVE_WINDOW` client message to the root window, which the window manager
 * acts on. Through xdotool when it is installed, else sent over the display's socket by Notify itself.
 */
export async function focusX11(place: X11Place, run: RunProgram): Promise<void> {
  const env = displayEnv(place);
  const done = await run('xdotool', ['windowactivate', String(place.window)], env);
  if (done.missing) {
    const display = place.display ?? process.env['DISPLAY'];
    if (display === undefined) throw new FocusRefusedError('no X display is known for this window');
    try {
      return await sendActivateMessage(place.window, display);
    } catch (error) {
      throw new FocusRefusedError(
        `the X11 window ${hex(place.window)} was not activated: ${(error as Error).message}`,
      );
    }
  }
  if (!done.ok)
    throw new FocusRefusedError(
      `the X11 window ${hex(place.window)} was not activated: ${firstLine(done.stderr) || 'it is gone'}`,
    );
}

/** The window manager's `_NET_ACTIVE_WINDOW` on the root window names this window. */
export async function x11HasFocus(place: X11Place, run: RunProgram): Promise<boolean> {
  const active = await activeWindow(displayEnv(place), run);
  return active === place.window;
}

export async function activeWindow(
  env: Record<string, string>,
  run: RunProgram,
): Promise<number | undefined> {
  const read = await run('xprop', ['-root', '_NET_ACTIVE_WINDOW'], env);
  const id = read.ok ? /window id # (0x[0-9a-f]+)/i.exec(read.stdout)?.[1] : undefined;
  return id === undefined ? undefined : Number.parseInt(id, 16);
}
