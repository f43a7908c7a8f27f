import { InvalidRequestError } from './errors.js';
import { isJsonObject } from './fields.js';

/**
 * Where an agent runs (an extension of the spec, docs/focus.md): the places its terminal sits in,
 * innermost first (a tmux pane, then the kitty window tmux runs in, ...). Only identifiers and paths:
 * never the environment, never anything secret.
 */
export type Place =
  | { kind: 'tmux'; socket: string; pane: string }
  | { kind: 'screen'; session: string; window?: number }
  | { kind: 'zellij'; session: string; pane?: number }
  | { kind: 'kitty'; window: number; listenOn?: string }
  | { kind: 'wezterm'; pane: number; socket?: string }
  | { kind: 'x11'; window: number; display?: string }
  | { kind: 'vscode'; editor: 'code' | 'cursor'; folder: string }
  | { kind: 'iterm2'; session: string }
  | { kind: 'windows-terminal'; session: string }
  | { kind: 'tty'; path: string };

export type Origin = Place[];
export type PlaceKind = Place['kind'];

export const MAX_PLACES = 8;
const MAX_PATH = 1024;

const ABSOLUTE_PATH = /^(\/|[A-Za-z]:\\)\P{Cc}*$/u;
type Rule = { test: (value: unknown) => boolean; says: string };

const text = (pattern: RegExp, max: number, says: string): Rule => ({
  test: (value) => typeof value === 'string' && value.length <= max && pattern.test(value),
  says,
});
const PATH = text(ABSOLUTE_PATH, MAX_PATH, `an absolute path of at most ${MAX_PATH} characters`);
const ID = {
  test: (value: unknown) =>
    Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 2 ** 32,
  says: 'a non-negative integer below 2^32',
};

/** Each kind's fields: required ones first, then the optional ones (marked with `?`). */
const FIELDS: Readonly<Record<PlaceKind, Readonly<Record<string, Rule>>>> = {
  tmux: { socket: PATH, pane: text(/^%\d{1,9}$/, 10, 'a tmux pane id such as %3') },
  screen: {
    session: text(/^\d+\.[A-Za-z0-9._-]+$/, 200, 'a screen session such as 1234.pts-0.host ($STY)'),
    'window?': ID,
  },
  zellij: { session: text(/^[A-Za-z0-9._-]+$/, 100, 'a zellij session name'), 'pane?': ID },
  kitty: {
    window: ID,
    'listenOn?': text(
      /^(unix:|tcp:)\P{Cc}+$/u,
      MAX_PATH,
      'a kitty address such as unix:/tmp/kitty-1000 ($KITTY_LISTEN_ON)',
    ),
  },
  wezterm: { pane: ID, 'socket?': PATH },
  x11: { window: ID, 'display?': text(/^[A-Za-z0-9._-]*:\d+(\.\d+)?$/, 100, 'an X display such as :0') },
  vscode: { editor: text(/^(code|cursor)$/, 6, 'code or cursor'), folder: PATH },
  iterm2: { session: text(/^[A-Za-z0-9:-]+$/, 100, 'an iTerm2 session id ($ITERM_SESSION_ID)') },
  'windows-terminal': {
    session: text(/^[0-9A-Fa-f-]{36}$/, 36, 'a Windows Terminal session GUID ($WT_SESSION)'),
  },
  tty: { path: text(/^\/dev\/[A-Za-z0-9/_.-]+$/, 100, 'a terminal device such as /dev/pts/3') },
};

export const PLACE_KINDS = Object.keys(FIELDS) as PlaceKind[];

/** The kinds of place Notify can take the person to (docs/focus.md); the others are only shown. */
export const FOCUSABLE_KINDS: readonly PlaceKind[] = ['tmux', 'kitty', 'wezterm', 'x11', 'vscode', 'iterm2'];

/** Whether a click can take the person there: some place of the origin is focusable. */
export function canFocus(origin: Origin | undefined): boolean {
  return origin?.some((place) => FOCUSABLE_KINDS.includes(place.kind)) ?? false;
}

function isPlaceKind(value: unknown): value is PlaceKind {
  return typeof value === 'string' && Object.hasOwn(FIELDS, value);
}

/**
 * The `origin` of a create (or of an ARC event's x-notify extension): undefined when absent or null;
 * otherwise 1 to 8 places, each of a known kind with exactly its fields, else a 400 naming the part.
 */
export function readOrigin(value: unknown, field = 'origin'): Origin | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PLACES)
    throw new InvalidRequestError(`${field} must be a list of 1 to ${MAX_PLACES} places, innermost first`);
  return value.map((place, index) => readPlace(place, `${field}[${index}]`));
}

function readPlace(value: unknown, where: string): Place {
  if (!isJsonObject(value)) throw new InvalidRequestError(`${where} must be a JSON object`);
  const kind = value['kind'];
  if (!isPlaceKind(kind))
    throw new InvalidRequestError(`${where}.kind must be one of ${PLACE_KINDS.join(', ')}`);
  const rules = FIELDS[kind];
  const names = Object.keys(rules).map((name) => name.replace('?', ''));
  for (const field of Object.keys(value)) {
    if (field !== 'kind' && !names.includes(field))
      throw new InvalidRequestError(
        `${where} has unknown field "${field}"; a ${kind} place has ${names.join(', ')}`,
      );
  }
  for (const [name, rule] of Object.entries(rules)) {
    const field = name.replace('?', '');
    const given = value[field];
    if (given === undefined && name.endsWith('?')) continue;
    if (given === undefined) throw new InvalidRequestError(`${where}.${field} is required for ${kind}`);
    if (!rule.test(given)) throw new InvalidRequestError(`${where}.${field} must be ${rule.says}`);
  }
  return value as Place;
}

/** One line per place for people: `tmux pane %3 (/tmp/tmux-1000/default)`, innermost first. */
export function describePlace(place: Place): string {
  switch (place.kind) {
    case 'tmux':
      return `tmux pane ${place.pane} (${place.socket})`;
    case 'screen':
      return `screen ${place.session}${place.window === undefined ? '' : ` window ${place.window}`}`;
    case 'zellij':
      return `zellij ${place.session}${place.pane === undefined ? '' : ` pane ${place.pane}`}`;
    case 'kitty':
      return `kitty window ${place.window}`;
    case 'wezterm':
      return `WezTerm pane ${place.pane}`;
    case 'x11':
      return `X11 window 0x${place.window.toString(16)}${place.display ? ` on ${place.display}` : ''}`;
    case 'vscode':
      return `${place.editor === 'cursor' ? 'Cursor' : 'VS Code'} ${place.folder}`;
    case 'iterm2':
      return `iTerm2 session ${place.session}`;
    case 'windows-terminal':
      return `Windows Terminal ${place.session}`;
    case 'tty':
      return `terminal ${place.path}`;
  }
}
