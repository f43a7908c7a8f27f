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
 * payload written to stdin and closed) and sends SIGTERM to the whole group `afterMs` after the spawn.
 */
async function stoppedEarly(command: string, payload: string, afterMs: number) {
  const child = spawn('/bin/sh', ['-c', command], { env: broker.home.env, detached: true, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.on('error', () => {});
  child.stdin.end(payload);
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, signal) => resolve([code, signal])),
  );
  await sleep(afterMs);
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // The group is gone already: nothing left to stop.
  }
  const [code, signal] = await exited;
  return { code, signal, output };
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
      const payload = JSON.stringify({
        ...fixtureFile('claude-code-2.1.332')['StopFailure'],
        session_id: session,
        cwd: broker.home.home,
      });
      const ended = await stoppedEarly(installed, payload, afterMs);
      assert.deepEqual(
        ended,
        { code: 0, signal: null, output: '' },
        'the tool sees a hook that exits 0 silently',
      );
      const [failure] = await waitFor(async () => {
        const found = await conditions(`claude-code:${session}`);
        return found.length > 0 && found;
      }, `the StopFailure of ${session}`);
      assert.equal(failure!.type, 'error');
      assert.equal(failure!.message, 'The turn ended with an error (unknown).');
    });
  }
});
