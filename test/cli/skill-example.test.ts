import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SKILL_MD } from '../../src/cli/notify/skill/skill-md.js';
import { useBroker } from '../support/broker-process.js';

/** The shell block of SKILL.md's event API section, as an agent would copy it. */
function eventExample(): string {
  const section = SKILL_MD.slice(SKILL_MD.indexOf('## With the event API'));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(match, 'the section has a shell example');
  return match[1]!;
}

function bash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

describe("SKILL.md's curl example", () => {
  const broker = useBroker();

  it('creates the event from a folder whose name holds quotes and a backslash, keeping the cwd exact', async () => {
    const cwd = join(broker.home.home, `it's a "quoted" \\ folder`);
    mkdirSync(cwd);
    const result = await bash(eventExample(), cwd, {
      ...broker.home.env,
      NOTIFY_TOKEN: broker.token,
      NOTIFY_PORT: String(broker.port),
    });
    assert.equal(result.code, 0, result.out);
    const created = JSON.parse(result.out) as { cwd?: string; title: string };
    assert.equal(created.title, 'Tests failing on main');
    assert.equal(created.cwd, cwd);
  });
});
