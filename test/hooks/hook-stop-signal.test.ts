import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NotificationDto } from '../../src/client/api-types.js';
import { useBroker } from '../support/broker-process.js';
import { startSilentServer } from '../support/notify-cli.js';
import { fixtureFile, HOOK } from './support.js';

const broker = useBroker();

/** When `claude -p` ends its hooks' process group after a failed turn (issue 18: ~44 ms). */
const SIGNAL_AFTER_MS = 40;
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
const SIGHUP = 1;

/**
 * Whether the adapter's handlers are in place (Linux: the SigCgt mask of /proc/<pid>/status). Node
 * catches SIGTERM and SIGINT itself from its start (to restore a terminal, then it dies of the signal),
 * so their bits tell nothing; SIGHUP, which Node leaves alone, gets its handler last, in the same
 * statement as the others.
 */
function adapterIsListening(pid: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & (1n << BigInt(SIGHUP - 1))) !== 0n;
  } catch {
    return false;
  }
}

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the signal to the exit. */
  afterSignalMs: number;
}

/**
 * Starts the installed hook as the tools do (payload on stdin, closed right after the signal unless
 * `keepStdinOpen`) and sends `signal` 40 ms after the spawn, or, on a machine so slow that Node has not reached the
 * adapter's first line by then, as soon as it has: that start-up time is the bench's to report.
 */
async function hookStoppedEarly(
  t: TestContext,
  stdin: string,
  signal: (typeof SIGNALS)[number],
  env: NodeJS.ProcessEnv,
  keepStdinOpen = false,
): Promise<Stopped> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [HOOK, 'claude'], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on('error', () => {});
  // Stdin closes only after the signal: a hook quicker than 40 ms on a fast machine would otherwise be
  // done before it, and the test would see nothing of what the signal does.
  child.stdin!.write(stdin);
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, by) => resolve([code, by])),
  );
  await sleep(SIGNAL_AFTER_MS);
  while (!adapterIsListening(child.pid!) && child.exitCode === null) await sleep(1);
  assert.equal(child.exitCode, null, 'the adapter never listened for stop signals while it ran');
  const signalledAt = performance.now();
  t.diagnostic(`${signal} sent ${(signalledAt - started).toFixed(0)} ms after the spawn`);
  child.kill(signal);
  if (!keepStdinOpen) child.stdin!.end();
  const trickle = keepStdinOpen ? setInterval(() => child.stdin!.write(' '), 200) : undefined;
  const [code, by] = await closed;
  clearInterval(trickle);
  child.stdin!.destroy();
  return { code, signal: by, stdout, stderr, afterSignalMs: performance.now() - signalledAt };
}

async function conditions(key: string): Promise<NotificationDto[]> {
  const response = await broker.request('GET', '/v1/notifications?limit=500');
  return ((await response.json()) as NotificationDto[]).filter((each) => each.key === key);
}

function stopFailure(session: string): string {
  return JSON.stringify({
    ...fixtureFile('claude-code-2.1.332')['StopFailure'],
    session_id: session,
    cwd: broker.home.home,
  });
}

describe('a hook the tool stops early still delivers its event', () => {
  for (const signal of SIGNALS) {
    it(`raises a StopFailure although the hook gets ${signal} 40 ms after its start, and exits 0 by itself`, async (t) => {
      const session = `c-${signal.toLowerCase()}`;
      const result = await hookStoppedEarly(t, stopFailure(session), signal, broker.home.env);
      assert.deepEqual(
        { code: result.code, signal: result.signal, stdout: result.stdout, stderr: result.stderr },
        { code: 0, signal: null, stdout: '', stderr: '' },
      );
      const [failure, ...more] = await conditions(`claude-code:${session}`);
      assert.equal(more.length, 0);
      assert.equal(failure!.type, 'error');
      assert.equal(failure!.status, 'active');
      assert.equal(failure!.message, 'The turn ended with an error (unknown).');
    });
  }

  it('does not outstay the signal when the broker never answers and stdin never closes', async (t) => {
    const silent = await startSilentServer();
    try {
      const env = { ...broker.home.env, NOTIFY_PORT: String(silent.port) };
      const result = await hookStoppedEarly(t, stopFailure('c-stuck'), 'SIGTERM', env, true);
      assert.deepEqual({ code: result.code, signal: result.signal }, { code: 0, signal: null });
      // Claude Code escalates to SIGKILL 5 s after SIGTERM; the adapter is gone well before.
      assert.ok(result.afterSignalMs < 5000, `${result.afterSignalMs} ms`);
    } finally {
      await silent.close();
    }
  });
});
