import { spawn } from 'node:child_process';
import { fixtureFile, HOOK } from '../hooks/support.js';
import type { BrokerProcess } from '../support/broker-process.js';

const CLAUDE = fixtureFile('claude-code-2.1.332')['PermissionRequest']!;

export interface RunningHook {
  /** performance.now() when it was spawned (a bench times from here). */
  startedAt: number;
  /** Its exit, what it printed and when the last of that came (performance.now()). */
  finished: Promise<{ code: number | null; stdout: string; printedAt: number }>;
}

/** A real Claude Code PermissionRequest hook, waiting for the person's answer through the broker. */
export function permissionHook(broker: BrokerProcess, session: string): RunningHook {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [HOOK, 'claude', '--answer-wait=60'], {
    env: broker.home.env,
    stdio: 'pipe',
  });
  let stdout = '';
  let printedAt = Number.NaN;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    printedAt = performance.now();
  });
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify({ ...CLAUDE, session_id: session }));
  return {
    startedAt,
    finished: new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, printedAt }))),
  };
}

/** What the hook prints when the person allowed. */
export const ALLOW_DECISION = {
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
};
