import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runNotify } from '../support/notify-cli.js';

interface SchemaObject {
  properties: Record<string, { properties?: Record<string, unknown> }>;
}

/**
 * Every file under `dir`, relative, with its content: a snapshot to prove nothing else changed. A
 * symbolic link is recorded by where it points, not followed.
 */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) files[path] = `-> ${readlinkSync(join(dir, path))}`;
      else if (entry.isDirectory()) walk(path);
      else files[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return files;
}

describe('notify install-skill', () => {
  let home: string;
  let project: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'notify-skill-home-'));
    project = mkdtempSync(join(tmpdir(), 'notify-skill-project-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });
  const run = (...args: string[]) =>
    runNotify(args, { env: { PATH: process.env['PATH'], HOME: home }, cwd: project });

  const claudeDir = () => join(home, '.claude', 'skills', 'notify');
  const codexDir = () => join(home, '.agents', 'skills', 'notify');

  it("names the port notify uses (config.json's, or NOTIFY_PORT over it), not a fixed 47821", async () => {
    mkdirSync(join(home, '.config', 'notify'), { recursive: true });
    writeFileSync(join(home, '.config', 'notify', 'config.json'), '{"port": 48100}');
    assert.equal((await run('install-skill', 'claude')).code, 0);
    const skill = readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8');
    assert.ok(skill.includes('HTTP API on `http://127.0.0.1:48100`'), skill);
    assert.ok(skill.includes('curl -sS "http://127.0.0.1:${NOTIFY_PORT:-48100}/v1/events"'));
    assert.ok(!skill.includes('47821'));

    const moved = await runNotify(['install-skill', 'codex'], {
      env: { PATH: process.env['PATH'], HOME: home, NOTIFY_PORT: '48200' },
      cwd: project,
    });
    assert.equal(moved.code, 0, moved.stderr);
    assert.ok(readFileSync(join(codexDir(), 'SKILL.md'), 'utf8').includes('${NOTIFY_PORT:-48200}'));
  });

  it('installs SKILL.md only for Claude Code in ~/.claude/skills/notify', async () => {
    const result = await run('install-skill', 'claude');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(Object.keys(snapshot(home)), ['.claude/skills/notify/SKILL.md']);
    assert.equal(
      result.stdout,
      `Claude Code skill: ${claudeDir()}\n  SKILL.md: created\nInstalled. Claude Code loads it in sessions started from now on.\n`,
    );
  });

  it('installs SKILL.md and agents/openai.yaml for Codex in ~/.agents/skills/notify', async () => {
    const result = await run('install-skill', 'codex');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(Object.keys(snapshot(home)).sort(), [
      '.agents/skills/notify/SKILL.md',
      '.agents/skills/notify/agents/openai.yaml',
    ]);
    assert.match(
      result.stdout,
      /SKILL\.md: created\n {2}agents\/openai\.yaml: created\nInstalled\. Restart Codex/,
    );
    const claude = await run('install-skill', 'claude');
    assert.equal(
      readFileSync(join(codexDir(), 'SKILL.md'), 'utf8'),
      readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8'),
      'one skill text for both tools',
    );
    assert.equal(claude.code, 0);
  });

  it('accepts the "install skill" spelling', async () => {
    const result = await run('install', 'skill', 'codex');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(codexDir(), 'agents', 'openai.yaml')));
  });

  it('installs into the project folders with --scope project', async () => {
    assert.equal((await run('install-skill', 'claude', '--scope', 'project')).code, 0);
    assert.equal((await run('install-skill', 'codex', '--scope=project')).code, 0);
    assert.deepEqual(Object.keys(snapshot(project)).sort(), [
      '.agents/skills/notify/SKILL.md',
      '.agents/skills/notify/agents/openai.yaml',
      '.claude/skills/notify/SKILL.md',
    ]);
    assert.deepEqual(snapshot(home), {});
  });

  it('creates a notify folder beneath --path, which overrides --scope', async () => {
    const result = await run('install-skill', 'codex', '--path', 'custom/skills', '--scope', 'user');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(Object.keys(snapshot(project)).sort(), [
      'custom/skills/notify/SKILL.md',
      'custom/skills/notify/agents/openai.yaml',
    ]);
    assert.match(result.stdout, new RegExp(`^Codex skill: ${join(project, 'custom', 'skills', 'notify')}\n`));
  });

  it('reports identical files as up to date and does not rewrite them', async () => {
    await run('install-skill', 'codex');
    const file = join(codexDir(), 'SKILL.md');
    const mtime = statSync(file).mtimeMs;
    const again = await run('install-skill', 'codex');
    assert.equal(again.code, 0);
    assert.equal(
      again.stdout,
      `Codex skill: ${codexDir()}\n  SKILL.md: up to date\n  agents/openai.yaml: up to date\nThe skill is up to date.\n`,
    );
    assert.equal(statSync(file).mtimeMs, mtime);
  });

  it('never overwrites a changed file without --force, and then writes nothing at all', async () => {
    mkdirSync(codexDir(), { recursive: true });
    writeFileSync(join(codexDir(), 'SKILL.md'), 'my own edits\n');
    const result = await run('install-skill', 'codex');
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      `Codex skill: ${codexDir()}\n  SKILL.md: changed, kept (--force replaces it)\n  agents/openai.yaml: not created\n`,
    );
    assert.equal(
      result.stderr,
      'Nothing written: SKILL.md differs from the skill of this notify. Run again with --force to replace it.\n',
    );
    assert.deepEqual(snapshot(codexDir()), { 'SKILL.md': 'my own edits\n' });
  });

  it('replaces a changed file with --force', async () => {
    await run('install-skill', 'claude');
    const original = readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8');
    writeFileSync(join(claudeDir(), 'SKILL.md'), 'stale\n');
    const result = await run('install-skill', 'claude', '--force');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /SKILL\.md: replaced\n/);
    assert.equal(readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8'), original);
  });

  it('keeps the mode of a file it replaces', async () => {
    await run('install-skill', 'claude');
    writeFileSync(join(claudeDir(), 'SKILL.md'), 'stale\n');
    chmodSync(join(claudeDir(), 'SKILL.md'), 0o600);
    assert.equal((await run('install-skill', 'claude', '--force')).code, 0);
    assert.equal(statSync(join(claudeDir(), 'SKILL.md')).mode & 0o777, 0o600);
  });

  it('writes nothing with --dry-run and reports what would happen', async () => {
    const fresh = await run('install-skill', 'codex', '--dry-run');
    assert.equal(fresh.code, 0);
    assert.equal(
      fresh.stdout,
      `Dry run: nothing is written.\nCodex skill: ${codexDir()}\n  SKILL.md: would create\n  agents/openai.yaml: would create\n`,
    );
    assert.deepEqual(snapshot(home), {});

    mkdirSync(codexDir(), { recursive: true });
    writeFileSync(join(codexDir(), 'SKILL.md'), 'edited\n');
    const forced = await run('install-skill', 'codex', '--dry-run', '--force');
    assert.equal(forced.code, 0);
    assert.match(forced.stdout, /SKILL\.md: would replace\n/);
    const kept = await run('install-skill', 'codex', '--dry-run');
    assert.match(kept.stdout, /SKILL\.md: changed, kept \(--force replaces it\)\n/);
    assert.deepEqual(snapshot(home), { '.agents/skills/notify/SKILL.md': 'edited\n' });
  });

  it('leaves every file outside the notify skill folder untouched, even with --force', async () => {
    const skills = join(home, '.agents', 'skills');
    mkdirSync(join(skills, 'other'), { recursive: true });
    writeFileSync(join(skills, 'other', 'SKILL.md'), 'another skill\n');
    writeFileSync(join(skills, 'SKILL.md'), 'a stray file\n');
    mkdirSync(join(skills, 'notify'), { recursive: true });
    writeFileSync(join(skills, 'notify', 'NOTES.md'), 'mine\n');
    writeFileSync(join(skills, 'notify', 'SKILL.md'), 'old\n');
    const result = await run('install-skill', 'codex', '--force');
    assert.equal(result.code, 0, result.stderr);
    const after = snapshot(skills);
    assert.equal(after['other/SKILL.md'], 'another skill\n');
    assert.equal(after['SKILL.md'], 'a stray file\n');
    assert.equal(after['notify/NOTES.md'], 'mine\n');
    assert.deepEqual(Object.keys(after).sort(), [
      'SKILL.md',
      'notify/NOTES.md',
      'notify/SKILL.md',
      'notify/agents/openai.yaml',
      'other/SKILL.md',
    ]);
  });

  describe('refuses to write through a symbolic link, writing nothing', () => {
    let outside: string;
    beforeEach(() => {
      outside = mkdtempSync(join(tmpdir(), 'notify-skill-outside-'));
      writeFileSync(join(outside, 'keep.txt'), 'keep\n');
    });
    afterEach(() => rmSync(outside, { recursive: true, force: true }));

    const assertRefused = (
      result: { code: number | null; stdout: string; stderr: string },
      link: string,
      outsideAfter: Record<string, string> = { 'keep.txt': 'keep\n' },
    ) => {
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(`${link} is a symbolic link.`), result.stderr);
      assert.match(result.stderr, /Nothing written\.\n$/);
      assert.deepEqual(snapshot(outside), outsideAfter, 'nothing outside the skill folder changed');
    };

    for (const args of [[], ['--force'], ['--dry-run']]) {
      it(`when the user-scope notify folder is a link ${args.join(' ')}`, async () => {
        mkdirSync(join(home, '.agents', 'skills'), { recursive: true });
        symlinkSync(outside, codexDir());
        assertRefused(await run('install-skill', 'codex', ...args), codexDir());
        assert.deepEqual(snapshot(home), { '.agents/skills/notify': `-> ${outside}` });
      });
    }

    it('when the notify folder beneath --path is a link', async () => {
      const skills = join(project, 'custom');
      mkdirSync(skills);
      symlinkSync(outside, join(skills, 'notify'));
      assertRefused(await run('install-skill', 'claude', '--path', skills), join(skills, 'notify'));
      assert.deepEqual(snapshot(project), { 'custom/notify': `-> ${outside}` });
    });

    it('when notify/agents is a link, even with --force, and SKILL.md is not written either', async () => {
      mkdirSync(codexDir(), { recursive: true });
      symlinkSync(outside, join(codexDir(), 'agents'));
      assertRefused(await run('install-skill', 'codex', '--force'), join(codexDir(), 'agents'));
      assert.deepEqual(snapshot(home), { '.agents/skills/notify/agents': `-> ${outside}` });
    });

    it('when notify/agents beneath --path is a link to a folder holding an openai.yaml', async () => {
      const dir = join(project, 'skills', 'notify');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(outside, 'openai.yaml'), 'theirs\n');
      symlinkSync(outside, join(dir, 'agents'));
      assertRefused(
        await run('install-skill', 'codex', '--path', join(project, 'skills'), '--force'),
        join(dir, 'agents'),
        { 'keep.txt': 'keep\n', 'openai.yaml': 'theirs\n' },
      );
      assert.ok(!existsSync(join(dir, 'SKILL.md')));
    });

    it('when the link is dangling, instead of creating its target', async () => {
      mkdirSync(join(home, '.claude', 'skills'), { recursive: true });
      const missing = join(outside, 'not-yet');
      symlinkSync(missing, claudeDir());
      assertRefused(await run('install-skill', 'claude'), claudeDir());
      assert.ok(!existsSync(missing));
    });
  });

  it('refuses, writing nothing, when the notify folder is a file', async () => {
    mkdirSync(join(home, '.claude', 'skills'), { recursive: true });
    writeFileSync(claudeDir(), 'a file\n');
    const result = await run('install-skill', 'claude');
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `${claudeDir()} is not a folder, where the skill needs one. Move it away and try again. Nothing written.\n`,
    );
    assert.deepEqual(snapshot(home), { '.claude/skills/notify': 'a file\n' });
  });

  it('installs into a real notify folder inside a linked skills folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'notify-skill-dotfiles-'));
    try {
      mkdirSync(join(home, '.claude'));
      symlinkSync(outside, join(home, '.claude', 'skills'));
      const result = await run('install-skill', 'claude');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(Object.keys(snapshot(outside)), ['notify/SKILL.md']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('installs a SKILL.md whose front matter both tools accept', async () => {
    await run('install-skill', 'claude');
    const text = readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8');
    const match = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
    assert.ok(match, 'front matter with name and a one-line description');
    assert.equal(match[1], 'notify');
    assert.ok(match[2]!.length <= 1024 && !match[2]!.includes(': '), 'a plain one-line YAML value');
    for (const topic of ['/v1/events', '"arc_version": "0.1"', 'request.resolved', '--key', 'Never put']) {
      assert.ok(text.includes(topic), topic);
    }
  });

  describe('SKILL.md matches what the broker does', () => {
    let text: string;
    beforeEach(async () => {
      assert.equal((await run('install-skill', 'claude')).code, 0);
      text = readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8');
    });

    it('names every field the ARC schema accepts, and says unknown ones are rejected', () => {
      const schema = JSON.parse(
        readFileSync(new URL('../../../schemas/arc-0.1.schema.json', import.meta.url), 'utf8'),
      ) as SchemaObject;
      const mentioned = (owner: string, field: string) =>
        text.includes(`\`${owner}.${field}\``) || text.includes(`"${field}":`);
      for (const field of Object.keys(schema.properties)) assert.ok(mentioned('', field), field);
      for (const owner of ['sender', 'context', 'request']) {
        for (const field of Object.keys(schema.properties[owner]!.properties!)) {
          assert.ok(mentioned(owner, field), `${owner}.${field}`);
        }
      }
      assert.ok(text.includes('"x-notify": { "notification_type"'));
      assert.ok(text.includes('Unknown fields are rejected'));
      assert.ok(!/no field other than those shown/i.test(text));
    });

    it('does not promise a high default priority for notify send --type', () => {
      assert.ok(
        !text.includes('Default priority |'),
        'the table names the priority to use, not a CLI default',
      );
      assert.ok(text.includes('`notify send` the `--type` does not: a notification gets `normal`'));
      assert.match(text, /notify send [^`]*--type permission-required --priority high/);
    });

    it('tells keyed and unkeyed retries of request.created apart', () => {
      assert.ok(!text.includes('never as a new one'), 'a keyed create after resolution is a new one');
      assert.ok(text.includes('without a key is safe: the same `sender.id` and `event_id` return'));
      assert.ok(text.includes('even after it was resolved'));
      assert.ok(
        text.includes(
          'after it was resolved or dismissed the same create\n  starts a new notification (201)',
        ),
      );
    });
  });

  it('installs an openai.yaml naming the skill for Codex', async () => {
    await run('install-skill', 'codex');
    const yaml = readFileSync(join(codexDir(), 'agents', 'openai.yaml'), 'utf8');
    assert.match(
      yaml,
      /^interface:\n {2}display_name: "Notify"\n {2}short_description: ".+"\n {2}default_prompt: ".*\$notify.*"\n$/,
    );
  });

  const invalid: [string, string[], string][] = [
    [
      'no tool',
      ['install-skill'],
      'install-skill requires a tool: claude or codex. Usage: notify install-skill',
    ],
    ['an unknown tool', ['install-skill', 'vim'], "unknown tool 'vim' for install-skill. Usage:"],
    [
      'an unknown scope',
      ['install-skill', 'claude', '--scope', 'global'],
      '--scope must be user or project.',
    ],
    [
      'an unknown option',
      ['install-skill', 'claude', '--yes'],
      "unknown option '--yes' for install-skill. Run 'notify help install-skill'.",
    ],
    ['two tools', ['install-skill', 'claude', 'codex'], "unexpected argument 'codex' for install-skill."],
    [
      'install without skill',
      ['install', 'claude'],
      "unknown install target 'claude'. Usage: notify install skill <claude|codex>.",
    ],
    ['install alone', ['install'], 'install requires a target. Usage: notify install skill <claude|codex>.'],
  ];
  for (const [what, args, message] of invalid) {
    it(`exits 1 and writes nothing for ${what}`, async () => {
      const result = await run(...args);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(message), result.stderr);
      assert.deepEqual(snapshot(home), {});
      assert.deepEqual(snapshot(project), {});
    });
  }
});
