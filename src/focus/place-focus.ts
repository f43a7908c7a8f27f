import type { Origin, Place, PlaceKind } from '../domain/origin.js';
import { focusEditor } from './editor-place.js';
import { FocusRefusedError } from './focus-refused.js';
import { focusIterm2 } from './iterm2-place.js';
import { focusKitty, kittyHasFocus } from './kitty-place.js';
import type { RunProgram } from './run-program.js';
import { focusTmux, tmuxHasFocus } from './tmux-place.js';
import { focusWezterm, weztermHasFocus } from './wezterm-place.js';
import { focusX11, x11HasFocus } from './x11-place.js';

export interface FocusDeps {
  run: RunProgram;
  /** The broker's user: a tmux socket of any other is refused. */
  uid: number | undefined;
}

/** What happened: the place focused (`how`) and the outer window raised after it, if any. */
export interface FocusResult {
  focused: true;
  how: PlaceKind;
  outer?: PlaceKind;
}

type Focuser = (place: Place, deps: FocusDeps) => Promise<void>;
type FocusSeer = (place: Place, deps: FocusDeps) => Promise<boolean>;

const FOCUS: Partial<Record<PlaceKind, Focuser>> = {
  tmux: (place, deps) => focusTmux(place as Extract<Place, { kind: 'tmux' }>, deps.run, deps.uid),
  kitty: (place, deps) => focusKitty(place as Extract<Place, { kind: 'kitty' }>, deps.run),
  wezterm: (place, deps) => focusWezterm(place as Extract<Place, { kind: 'wezterm' }>, deps.run),
  x11: (place, deps) => focusX11(place as Extract<Place, { kind: 'x11' }>, deps.run),
  vscode: (place, deps) => focusEditor(place as Extract<Place, { kind: 'vscode' }>, deps.run),
  iterm2: (place, deps) => focusIterm2(place as Extract<Place, { kind: 'iterm2' }>, deps.run),
};

/** The places whose focus Notify can see (docs/focus.md "Quiet while looking"). */
const SEE: Partial<Record<PlaceKind, FocusSeer>> = {
  tmux: (place, deps) => tmuxHasFocus(place as Extract<Place, { kind: 'tmux' }>, deps.run, deps.uid),
  kitty: (place, deps) => kittyHasFocus(place as Extract<Place, { kind: 'kitty' }>, deps.run),
  wezterm: (place, deps) => weztermHasFocus(place as Extract<Place, { kind: 'wezterm' }>, deps.run),
  x11: (place, deps) => x11HasFocus(place as Extract<Place, { kind: 'x11' }>, deps.run),
};

export const SEEABLE_KINDS = Object.keys(SEE) as PlaceKind[];

const NAMES: Record<PlaceKind, string> = {
  tmux: 'tmux',
  screen: 'GNU screen',
  zellij: 'zellij',
  kitty: 'kitty',
  wezterm: 'WezTerm',
  x11: 'X11',
  vscode: 'VS Code',
  iterm2: 'iTerm2',
  'windows-terminal': 'Windows Terminal',
  tty: 'a bare terminal device',
};

/**
 * Focuses the innermost place Notify knows how to focus (its failure is the 409), then the first
 * focusable place outside it (the terminal window a tmux client runs in), which is best effort.
 */
export async function focusOrigin(origin: Origin | undefined, deps: FocusDeps): Promise<FocusResult> {
  if (origin === undefined)
    throw new FocusRefusedError('this notification does not say where its agent runs (no origin)');
  const focusable = origin.filter((place) => FOCUS[place.kind] !== undefined);
  const [inner, ...outside] = focusable;
  if (inner === undefined) {
    const kinds = [...new Set(origin.map((place) => NAMES[place.kind]))].join(', ');
    throw new FocusRefusedError(`Notify cannot focus ${kinds}`);
  }
  await FOCUS[inner.kind]!(inner, deps);
  for (const place of outside) {
    try {
      await FOCUS[place.kind]!(place, deps);
      return { focused: true, how: inner.kind, outer: place.kind };
    } catch {
      // The pane is in front inside its terminal; a window that would not rise leaves it at that.
    }
  }
  return { focused: true, how: inner.kind };
}

/**
 * Whether the person looks at the place: asked of the innermost place whose focus Notify can see; false
 * when none can be seen or the check fails, so a doubt never silences a request.
 */
export async function originHasFocus(origin: Origin | undefined, deps: FocusDeps): Promise<boolean> {
  const place = origin?.find((candidate) => SEE[candidate.kind] !== undefined);
  if (place === undefined) return false;
  try {
    return await SEE[place.kind]!(place, deps);
  } catch {
    return false;
  }
}
