import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';

type WeztermPlace = Extract<Place, { kind: 'wezterm' }>;

/** The mux the pane lives in, through the variable `wezterm cli` reads (never a command-line string). */
const muxEnv = (place: WeztermPlace): Record<string, string> =>
  place.socket ? { WEZTERM_UNIX_SOCKET: place.socket } : {};

export async function focusWezterm(place: WeztermPlace, run: RunProgram): Promise<void> {
  const done = await run('wezterm', ['cli', 'activate-pane', '--pane-id', String(place.pane)], muxEnv(place));
  if (done.missing) throw new FocusRefusedError('wezterm is not installed where Notify runs');
  if (!done.ok)
    throw new FocusRefusedError(`WezTerm did not activate pane ${place.pane}: ${firstLine(done.stderr)}`);
}

/** `wezterm cli list-clients`: a GUI client whose focused pane is this one. */
export async function weztermHasFocus(place: WeztermPlace, run: RunProgram): Promise<boolean> {
  const listed = await run('wezterm', ['cli', 'list-clients', '--format', 'json'], muxEnv(place));
  if (!listed.ok) return false;
  try {
    const clients = JSON.parse(listed.stdout) as { focused_pane_id?: number }[];
    return clients.some((client) => client.focused_pane_id === place.pane);
  } catch {
    return false;
  }
}
