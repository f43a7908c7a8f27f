import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HookTool } from '../../src/domain/hooks/decision.js';
import type { ProcessResult } from '../support/run-node.js';

/** The bundled hook adapter the installed hooks run (scripts/bundle-client.mjs). */
export const HOOK = fileURLToPath(new URL('../../notify-hook.cjs', import.meta.url));
export { NOTIFYCTL } from '../support/notifyctl-cli.js';

const FIXTURES = new URL('../../../test/fixtures/hooks/', import.meta.url);

/** Recorded hook payloads of one tool, by name (test/fixtures/hooks/<tool>.json). */
export function fixtures(tool: HookTool): Record<string, Record<string, unknown>> {
  return fixtureFile(tool);
}

/** Hook payloads by name from test/fixtures/hooks/<name>.json (e.g. `claude-code-2.1.332`). */
export function fixtureFile(name: string): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
}

export interface HookRun extends ProcessResult {
  elapsedMs: number;
}

/**
 * Runs a hook the way an agent tool does: payload on stdin (then closed), no terminal. `script`
 * defaults to the bundle; pass NOTIFYCTL with `['hook', tool]` to go through notifyctl.
 */
export function runHook(
  args: string[],
  stdin: string | undefined,
  env: NodeJS.ProcessEnv,
  script: string = HOOK,
): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => {});
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ code, stdout, stderr, elapsedMs: Number(process.hrtime.bigint() - started) / 1e6 }),
    );
    child.stdin.end(stdin);
  });
}
