import { lstat } from 'node:fs/promises';
import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';

type TmuxPlace = Extract<Place, { kind: 'tmux' }>;

/**
 * A tmux server is the user's only when its socket is: tmux itself refuses other users' clients, and
 * a notification naming another user's socket must never make us talk to it (issue 34).
 */
async function ownedSocket(place: TmuxPlace, uid: number | undefined): Promise<void> {
  let stats;
  try {
    stats = await lstat(place.socket);
  } catch {
    throw new FocusRefusedError('the tmux server is gone');
  }
  if (!stats.isSocket()) throw new FocusRefusedError(`${place.socket} is not a tmux server's socket`);
  if (uid !== undefined && stats.uid !== uid)
    throw new FocusRefusedError(`the tmux server at ${place.socket} belongs to another user`);
}

interface PaneClient {
  tty: string;
  activity: number;
  pane: string;
  flags: string[];
}

async function clients(place: TmuxPlace, run: RunProgram): Promise<PaneClient[]> {
  const listed = await run('tmux', [
    '-S',
    place.socket,
    'list-clients',
    '-F',
    '#{client_tty}|#{client_activity}|#{pane_id}|#{client_flags}',
  ]);
  if (listed.missing) throw new FocusRefusedError('tmux is not installed where Notify runs');
  if (!listed.ok) throw new FocusRefusedError('the tmux server is gone');
  return listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [tty = '', activity = '0', pane = '', flags = ''] = line.split('|');
      return { tty, activity: Number(activity), pane, flags: flags.split(',') };
    });
}

/**
 * Takes the most recently used client of the pane's server to the pane: switch-client (its session),
 * select-window, select-pane. Without any client attached, the pane is still made current, then 409.
 */
export async function focusTmux(place: TmuxPlace, run: RunProgram, uid: number | undefined): Promise<void> {
  await ownedSocket(place, uid);
  const panes = await run('tmux', ['-S', place.socket, 'list-panes', '-a', '-F', '#{pane_id}']);
  if (panes.missing) throw new FocusRefusedError('tmux is not installed where Notify runs');
  if (!panes.ok) throw new FocusRefusedError('the tmux server is gone');
  if (!panes.stdout.split('\n').includes(place.pane))
    throw new FocusRefusedError(`the tmux pane ${place.pane} is gone`);
  const [client] = (await clients(place, run)).sort((a, b) => b.activity - a.activity);
  const select = ['select-window', '-t', place.pane, ';', 'select-pane', '-t', place.pane];
  const args = client
    ? ['-S', place.socket, 'switch-client', '-c', client.tty, '-t', place.pane, ';', ...select]
    : ['-S', place.socket, ...select];
  const done = await run('tmux', args);
  if (!done.ok)
    throw new FocusRefusedError(`tmux did not select pane ${place.pane}: ${firstLine(done.stderr)}`);
  if (!client) throw new FocusRefusedError('no terminal is attached to the tmux server');
}

/**
 * Whether the person looks at the pane: a client shows it and its terminal has the focus, as tmux
 * knows from the terminal's focus events (`focus-events on`).
 */
export async function tmuxHasFocus(
  place: TmuxPlace,
  run: RunProgram,
  uid: number | undefined,
): Promise<boolean> {
  await ownedSocket(place, uid);
  return (await clients(place, run)).some(
    (client) => client.pane === place.pane && client.flags.includes('focused'),
  );
}
