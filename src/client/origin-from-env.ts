import { readFileSync, readlinkSync } from 'node:fs';
import { readOrigin, type Origin, type Place } from '../domain/origin.js';

/** How many processes up the tree the terminal is looked for: a hook runs under a shell under the agent. */
const ANCESTORS = 4;

/**
 * Where the calling agent runs, read from its environment (docs/focus.md): the terminal device, then
 * the multiplexer pane (tmux, screen, zellij), then the terminal's own pane or window (kitty, WezTerm,
 * iTerm2, VS Code / Cursor, Windows Terminal), then the X11 window: innermost first. Only identifiers
 * and paths are kept. A value that does not have its expected shape is left out, so an odd environment
 * never costs the notification. `folder` is the workspace a VS Code / Cursor terminal belongs to (the
 * agent's working folder). Undefined when nothing is known.
 */
export function originFromEnv(
  env: NodeJS.ProcessEnv,
  folder: string | undefined,
  tty: string | undefined = terminalDevice(),
): Origin | undefined {
  const candidates: Place[] = [];
  if (tty !== undefined) candidates.push({ kind: 'tty', path: tty });
  const tmux = env['TMUX']?.split(',');
  if (tmux && tmux.length >= 3 && env['TMUX_PANE'])
    candidates.push({ kind: 'tmux', socket: tmux.slice(0, -2).join(','), pane: env['TMUX_PANE'] });
  if (env['STY'])
    candidates.push({ kind: 'screen', session: env['STY'], ...optionalId('window', env['WINDOW']) });
  if (env['ZELLIJ_SESSION_NAME'])
    candidates.push({
      kind: 'zellij',
      session: env['ZELLIJ_SESSION_NAME'],
      ...optionalId('pane', env['ZELLIJ_PANE_ID']),
    });
  if (env['KITTY_WINDOW_ID'])
    candidates.push({
      kind: 'kitty',
      window: Number(env['KITTY_WINDOW_ID']),
      ...(env['KITTY_LISTEN_ON'] && { listenOn: env['KITTY_LISTEN_ON'] }),
    });
  if (env['WEZTERM_PANE'])
    candidates.push({
      kind: 'wezterm',
      pane: Number(env['WEZTERM_PANE']),
      ...(env['WEZTERM_UNIX_SOCKET'] && { socket: env['WEZTERM_UNIX_SOCKET'] }),
    });
  if (env['ITERM_SESSION_ID']) candidates.push({ kind: 'iterm2', session: env['ITERM_SESSION_ID'] });
  if (env['TERM_PROGRAM'] === 'vscode' && folder !== undefined)
    candidates.push({ kind: 'vscode', editor: isCursor(env) ? 'cursor' : 'code', folder });
  if (env['WT_SESSION']) candidates.push({ kind: 'windows-terminal', session: env['WT_SESSION'] });
  if (env['WINDOWID'])
    candidates.push({
      kind: 'x11',
      window: Number(env['WINDOWID']),
      ...(env['DISPLAY'] && { display: env['DISPLAY'] }),
    });
  const places = candidates.filter(isWellFormed).slice(0, 8);
  return places.length > 0 ? places : undefined;
}

function optionalId<F extends string>(field: F, value: string | undefined): Partial<Record<F, number>> {
  return value !== undefined && /^\d{1,9}$/.test(value)
    ? ({ [field]: Number(value) } as Record<F, number>)
    : {};
}

/** Cursor's terminals say TERM_PROGRAM=vscode too; its own variables tell them apart. */
function isCursor(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env['CURSOR_TRACE_ID']) || /cursor/i.test(env['VSCODE_GIT_ASKPASS_NODE'] ?? '');
}

function isWellFormed(place: Place): boolean {
  try {
    readOrigin([place]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The terminal this process or one of its parents writes to (Linux /proc): a hook itself runs
 * without a terminal, but the agent above it has one.
 */
function terminalDevice(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  let pid: string | undefined = 'self';
  for (let level = 0; level <= ANCESTORS && pid !== undefined && pid !== '0'; level++) {
    for (const fd of [0, 1, 2]) {
      const target = linkOf(`/proc/${pid}/fd/${fd}`);
      if (target !== undefined && /^\/dev\/(pts\/\d+|tty\w*)$/.test(target) && target !== '/dev/tty')
        return target;
    }
    pid = parentOf(pid);
  }
  return undefined;
}

function linkOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function parentOf(pid: string): string | undefined {
  try {
    // The fields after the command name, which may hold spaces and parentheses: state, then ppid.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  } catch {
    return undefined;
  }
}
