import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createTempHome, freePort, writeConfig } from '../support/broker-process.js';
import { HOOK } from './support.js';

/** The installed hooks give the adapter 5 s (docs/agents.md); past that the agent kills it. */
const AGENT_HOOK_TIMEOUT_MS = 5000;

describe('the hook reading stdin', () => {
  const home = createTempHome();
  after(() => home.cleanup());

  it('stops at its deadline when a writer sends 1 byte every 0.8 s and never closes stdin', async () => {
    writeConfig(home, { port: await freePort(), authToken: 'unused' });
    const child = spawn(process.execPath, [HOOK, 'claude'], {
      env: home.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdin.on('error', () => {});
    const started = Date.now();
    const trickle = () => child.stdin.write('{');
    trickle();
    const writer = setInterval(trickle, 800);
    // Without a deadline the hook would read for as long as the writer writes: give up on it at 15 s.
    const giveUp = setTimeout(() => child.kill(), 15_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const elapsedMs = Date.now() - started;
    clearInterval(writer);
    clearTimeout(giveUp);
    assert.deepEqual({ code, output }, { code: 0, output: '' });
    assert.ok(elapsedMs < AGENT_HOOK_TIMEOUT_MS, `the hook ran ${elapsedMs} ms`);
    const logs = readdirSync(home.logDir).map((file) => readFileSync(join(home.logDir, file), 'utf8'));
    assert.match(logs.join(''), /\[WARN\] hook claude: payload is not a JSON object; ignored\n$/);
  });
});
