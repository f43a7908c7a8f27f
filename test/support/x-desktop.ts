import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait-for.js';

const execFileAsync = promisify(execFile);
/** X programs start slowly on a busy machine (a first xterm reads its fonts): a wait's deadline. */
const X_START_MS = 30_000;
/** How long one start of openbox may take to manage the screen, and how many starts are tried. */
const OPENBOX_START_MS = 15_000;
const OPENBOX_STARTS = 3;

/**
 * A real X desktop for focus tests: Xvfb with openbox (a window manager that keeps EWMH's
 * `_NET_ACTIVE_WINDOW`), and xterms on it. Everything runs as this user, in a folder of its own.
 */
export interface XDesktop {
  display: string;
  dir: string;
  /** Runs a program with DISPLAY set; resolves to its stdout. */
  x(program: string, ...args: string[]): Promise<string>;
  /** The window the window manager says is active (`xprop -root _NET_ACTIVE_WINDOW`). */
  activeWindow(): Promise<number | undefined>;
  /** Starts an xterm running `command` and resolves to its window id ($WINDOWID inside it). */
  xterm(name: string, command: string[]): Promise<number>;
  activate(window: number): Promise<void>;
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

export async function startXDesktop(): Promise<XDesktop> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-x-'));
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let output = '';
    xvfb.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(`:${output.trim()}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  const env = { ...process.env, DISPLAY: display };
  const children: ChildProcess[] = [xvfb];
  const x = async (program: string, ...args: string[]) =>
    (await execFileAsync(program, args, { env })).stdout;
  const stopAll = async () => {
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      await exitOf(child);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // openbox once failed to manage the screen within 30 s in a CI run that passed on every other run:
  // each start gets a while of its own, a window manager that exited or hangs is started again (three
  // starts at most), and a failure says what openbox printed.
  let said = '';
  const managed = async () => {
    const openbox = spawn('openbox', ['--sm-disable'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    openbox.stderr!.on('data', (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-2000);
    });
    try {
      await waitFor(
        () => {
          if (openbox.exitCode !== null || openbox.signalCode !== null) throw new Error('openbox exited');
          return x('xprop', '-root', '_NET_SUPPORTING_WM_CHECK').then(
            (out) => out.includes('window id'),
            () => false,
          );
        },
        'openbox to manage the screen',
        OPENBOX_START_MS,
      );
      children.push(openbox);
      return true;
    } catch {
      openbox.kill('SIGKILL');
      await exitOf(openbox);
      return false;
    }
  };
  let starts = 1;
  while (!(await managed())) {
    if (starts++ === OPENBOX_STARTS) {
      await stopAll();
      throw new Error(
        `openbox did not manage the screen in ${OPENBOX_STARTS} starts of ${OPENBOX_START_MS / 1000} s; it said: ${said || 'nothing'}`,
      );
    }
  }
  const activeWindow = async () => {
    const out = await x('xprop', '-root', '_NET_ACTIVE_WINDOW');
    const id = /window id # (0x[0-9a-f]+)/i.exec(out)?.[1];
    return id === undefined ? undefined : Number.parseInt(id, 16);
  };
  return {
    display,
    dir,
    x,
    activeWindow,
    xterm: async (name, command) => {
      const idFile = join(dir, `${name}.windowid`);
      // The first thing the xterm runs writes its $WINDOWID, then execs the command.
      const script = join(dir, `${name}.sh`);
      writeFileSync(script, `#!/bin/sh\nprintf '%s' "$WINDOWID" > '${idFile}'\nexec "$@"\n`, { mode: 0o755 });
      const child = spawn('xterm', ['-name', name, '-e', script, ...command], { env, stdio: 'ignore' });
      children.push(child);
      const id = await waitFor(
        () => {
          try {
            const text = readFileSync(idFile, 'utf8');
            return text === '' ? undefined : Number(text);
          } catch {
            return undefined;
          }
        },
        `xterm ${name} to start`,
        X_START_MS,
      );
      // openbox maps it and makes it active: wait for that, so later activations are ours.
      await waitFor(async () => (await activeWindow()) === id, `xterm ${name} to be active`, X_START_MS);
      return id;
    },
    activate: async (window) => {
      await x('xdotool', 'windowactivate', String(window));
      await waitFor(async () => (await activeWindow()) === window, `window ${window} to be active`);
    },
    stop: stopAll,
  };
}

/** A private tmux server (its own -S socket, no user config) with focus events on. */
export interface TmuxServer {
  socket: string;
  tmux(...args: string[]): Promise<string>;
  /** What the attached client shows: its session, and the active pane there. */
  client(): Promise<{ session: string; pane: string; flags: string[] }>;
  kill(): Promise<void>;
}

export function tmuxServer(dir: string, display: string): TmuxServer {
  const socket = join(dir, 'tmux.sock');
  const config = join(dir, 'tmux.conf');
  writeFileSync(config, 'set -g focus-events on\nset -g default-shell /bin/sh\n');
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display };
  delete env['TMUX'];
  const tmux = async (...args: string[]) =>
    (await execFileAsync('tmux', ['-S', socket, '-f', config, ...args], { env })).stdout;
  return {
    socket,
    tmux,
    client: async () => {
      const out = await tmux('list-clients', '-F', '#{session_name}|#{pane_id}|#{client_flags}');
      const [session = '', pane = '', flags = ''] = out.trim().split('\n')[0]!.split('|');
      return { session, pane, flags: flags.split(',') };
    },
    kill: async () => {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}
