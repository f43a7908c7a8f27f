import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NotificationDto } from '../../src/client/api-types.js';
import { useBroker } from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';
import { waitFor } from '../support/wait-for.js';
import { fixtureFile, NOTIFYCTL } from './support.js';

const broker = useBroker();

/**
 * When the tool stops the hook's process group: `claude -p` did it 37-284 ms after the spawn, and Node
 * alone needs 50-70 ms to reach the adapter's first line, so these land before it, while the shell
 * starts, and while Node starts.
 */
const SIGNAL_AFTER_MS = [10, 25, 45, 70];

let installed: string;

/** The command `notifyctl hooks install claude` wrote for an event, as Claude Code reads it. */
function installedCommand(event: string): string {
  const settings = JSON.parse(readFileSync(join(broker.home.home, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  return settings.hooks[event]![0]!.hooks[0]!.command;
}

/**
 * Runs the installed command as Claude Code does (through /bin/sh, in a process group of its own, the
 * payload written to stdin and closed), sends SIGTERM to the whole group `afterMs` after the spawn
 * and, with `killAfterMs`, SIGKILL to the group that long after the spawn (`claude -p` did about 1.4 s
 * after its SIGTERM).
 */
async function stoppedEarly(
  command: string,
  payload: string,
  afterMs: number,
  { killAfterMs, env = broker.home.env }: { killAfterMs?: number; env?: NodeJS.ProcessEnv } = {},
) {
  const child = spawn('/bin/sh', ['-c', command], { env, detached: true, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.on('error', () => {});
  child.stdin.end(payload);
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, signal) => resolve([code, signal])),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone already: nothing left to stop.
    }
  };
  await sleep(afterMs);
  // On a machine so busy that the spawn has not even reached /bin/sh by then, as soon as it has: what
  // runs before the shell's first statement is the spawning program's, not the installed command's.
  while (hasNotExecuted(child.pid!)) await sleep(1);
  signalGroup('SIGTERM');
  if (killAfterMs !== undefined) {
    await sleep(killAfterMs - afterMs);
    // Once the shell's child left for a session of its own, or after a second at most (main's bare
    // command has no such child): the SIGKILL must find the adapter still at work, not before it left.
    for (let waited = 0; waited < 1000 && !childLeftGroup(child.pid!); waited += 5) await sleep(5);
    signalGroup('SIGKILL');
  }
  const [code, signal] = await exited;
  return { code, signal, output };
}

const OWN_COMMAND_LINE = readFileSync('/proc/self/cmdline');

/** Linux: the spawned child is still the copy of this process that has yet to run /bin/sh. */
function hasNotExecuted(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`).equals(OWN_COMMAND_LINE);
  } catch {
    return false;
  }
}

/** Linux: a child of the shell runs in another session than the shell (setsid). */
function childLeftGroup(pid: number): boolean {
  try {
    const session = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3];
    const own = session(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
    return children.some(
      (each) => each !== '' && session(readFileSync(`/proc/${each}/stat`, 'utf8')) !== own,
    );
  } catch {
    return false;
  }
}

function stopFailure(session: string): string {
  return JSON.stringify({
    ...fixtureFile('claude-code-2.1.332')['StopFailure'],
    session_id: session,
    cwd: broker.home.home,
  });
}

/** The session's StopFailure, once it arrived. */
async function arrived(session: string): Promise<NotificationDto> {
  const [failure] = await waitFor(async () => {
    const found = await conditions(`claude-code:${session}`);
    return found.length > 0 && found;
  }, `the StopFailure of ${session}`);
  assert.equal(failure!.type, 'error');
  assert.equal(failure!.message, 'The turn ended with an error (unknown).');
  return failure!;
}

async function conditions(key: string): Promise<NotificationDto[]> {
  const response = await broker.request('GET', `/v1/notifications?limit=10&key=${encodeURIComponent(key)}`);
  return (await response.json()) as NotificationDto[];
}

describe('the installed hook command outlives a stop signal that comes before its first line', () => {
  before(async () => {
    const result = await runNode(NOTIFYCTL, ['hooks', 'install', 'claude'], {
      env: broker.home.env,
      cwd: broker.home.home,
    });
    assert.equal(result.code, 0, result.stderr);
    installed = installedCommand('StopFailure');
  });

  for (const afterMs of SIGNAL_AFTER_MS) {
    it(`delivers a StopFailure although the process group gets SIGTERM ${afterMs} ms after the spawn`, async () => {
      const session = `early-${afterMs}`;
      const ended = await stoppedEarly(installed, stopFailure(session), afterMs);
      assert.deepEqual(
        ended,
        { code: 0, signal: null, output: '' },
        'the tool sees a hook that exits 0 silently',
      );
      await arrived(session);
    });
  }

  it('delivers it when the group gets SIGKILL too, before the adapter is done (Linux: setsid)', async () => {
    const ended = await stoppedEarly(installed, stopFailure('early-killed'), 10, { killAfterMs: 20 });
    assert.equal(ended.signal, 'SIGKILL', 'the shell itself is killed');
    await arrived('early-killed');
  });

  it('delivers it without setsid (macOS) by starting the adapter again after the signal', async () => {
    for (const afterMs of SIGNAL_AFTER_MS) {
      const session = `early-no-setsid-${afterMs}`;
      const env = { ...broker.home.env, PATH: '/nonexistent' };
      const ended = await stoppedEarly(installed, stopFailure(session), afterMs, { env });
      assert.deepEqual(ended, { code: 0, signal: null, output: '' });
      await arrived(session);
    }
  });
});
