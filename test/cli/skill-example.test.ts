import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { skillMd } from '../../src/cli/notify/skill/skill-md.js';
import { useBroker } from '../support/broker-process.js';

/** The first shell block of a SKILL.md section, as an agent would copy it. */
function shellBlock(heading: string, port = 47821): string {
  const skill = skillMd(port);
  const section = skill.slice(skill.indexOf(heading));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(match, `${heading} has a shell example`);
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
    // No NOTIFY_PORT: the skill installed for this broker names its port.
    const result = await bash(shellBlock('## With the event API', broker.port), cwd, {
      ...broker.home.env,
      NOTIFY_TOKEN: broker.token,
    });
    assert.equal(result.code, 0, result.out);
    const created = JSON.parse(result.out) as { cwd?: string; title: string };
    assert.equal(created.title, 'Tests failing on main');
    assert.equal(created.cwd, cwd);
  });
});

describe("SKILL.md's token line for a shell without notify", () => {
  const tokenLine = () => `${shellBlock('## If `notify` is not on the PATH')}printf %s "$TOKEN"`;

  for (const [what, xdg] of [
    ['~/.config', undefined],
    ['$XDG_CONFIG_HOME', 'elsewhere'],
  ] as const) {
    it(`reads the token from config.json under ${what}`, async () => {
      const home = mkdtempSync(join(tmpdir(), 'notify-skill-token-'));
      try {
        const configDir = join(home, xdg ?? '.config', 'notify');
        mkdirSync(configDir, { recursive: true });
        writeFileSync(join(configDir, 'config.json'), JSON.stringify({ authToken: 'the-token' }));
        const env = {
          PATH: process.env['PATH'],
          HOME: home,
          ...(xdg && { XDG_CONFIG_HOME: join(home, xdg) }),
        };
        assert.deepEqual(await bash(tokenLine(), home, env), { code: 0, out: 'the-token' });
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
});
