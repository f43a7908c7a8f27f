import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runNotify } from '../support/notify-cli.js';

/** A runaway read (/dev/zero) or a spin (mkdir under /proc) fails here instead of hanging the suite. */
const BOUNDED = { timeout: 15_000 };

describe('notify install-skill: where the skill may go and what it reads', () => {
  let home: string;
  let project: string;
  let outside: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'notify-skill-home-'));
    project = mkdtempSync(join(tmpdir(), 'notify-skill-project-'));
    outside = mkdtempSync(join(tmpdir(), 'notify-skill-outside-'));
  });
  afterEach(() => {
    for (const dir of [home, project, outside]) rmSync(dir, { recursive: true, force: true });
  });
  const run = (...args: string[]) =>
    runNotify(args, { env: { PATH: process.env['PATH'], HOME: home }, cwd: project });
  const claudeDir = () => join(home, '.claude', 'skills', 'notify');

  it('with --path, says truthfully that the tool does not read skills from that folder', async () => {
    const result = await run('install-skill', 'claude', '--path', 'my-skills');
    assert.equal(result.code, 0, result.stderr);
    const dir = join(project, 'my-skills', 'notify');
    assert.equal(
      result.stdout,
      `Claude Code skill: ${dir}\n  SKILL.md: created\n` +
        `Installed. Claude Code does not read skills from here, only from ~/.claude/skills and <project>/.claude/skills: link or copy ${dir} into one of those to use it.\n`,
    );
    const again = await run('install-skill', 'codex', '--path', 'my-skills', '--force');
    assert.match(
      again.stdout,
      /\nInstalled\. Codex does not read skills from here, only from ~\/\.agents\/skills and <project>\/\.agents\/skills: /,
    );
  });

  const lastLine = (stdout: string) => stdout.split('\n').at(-2);
  for (const [tool, folder, nextStep] of [
    ['claude', '.claude', 'Claude Code loads it in sessions started from now on.'],
    ['codex', '.agents', 'Restart Codex to load it.'],
  ] as const) {
    for (const [where, path] of [
      [`~/${folder}/skills`, () => join(home, folder, 'skills')],
      [`${folder}/skills in the project`, () => join(folder, 'skills')],
    ] as const) {
      it(`${tool} --path ${where}, a folder the tool reads: says what the normal install says`, async () => {
        const result = await run('install-skill', tool, '--path', path());
        assert.equal(result.code, 0, result.stderr);
        assert.equal(lastLine(result.stdout), `Installed. ${nextStep}`);
        const again = await run('install-skill', tool, '--path', path());
        assert.equal(lastLine(again.stdout), 'The skill is up to date.');
      });
    }
  }

  it('with --path at a folder that ~/.claude/skills links to, says Claude Code loads it', async () => {
    mkdirSync(join(home, '.claude'));
    symlinkSync(outside, join(home, '.claude', 'skills'));
    const result = await run('install-skill', 'claude', '--path', outside);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      `Claude Code skill: ${join(outside, 'notify')}\n  SKILL.md: created\nInstalled. Claude Code loads it in sessions started from now on.\n`,
    );
  });

  for (const args of [[], ['--dry-run'], ['--force']]) {
    it(`names a ~/.claude/skills link that loops and what to do, creating nothing ${args.join(' ')}`, async () => {
      mkdirSync(join(home, '.claude'));
      const link = join(home, '.claude', 'skills');
      symlinkSync(link, link);
      const result = await run('install-skill', 'claude', ...args);
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `${link} is a symbolic link to ${link}, and following it goes round a loop of links, so no folder is there. Remove the link (rm "${link}") or point it at a real folder, then try again. Nothing written.\n`,
      });
    });
  }

  it('names the link that loops when a folder above the skills folder loops', async () => {
    symlinkSync(join(home, 'b'), join(home, '.claude'));
    symlinkSync(join(home, '.claude'), join(home, 'b'));
    const result = await run('install-skill', 'claude');
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `${join(home, '.claude')} is a symbolic link to ${join(home, 'b')}, and following it goes round a loop of links, so no folder is there. Remove the link (rm "${join(home, '.claude')}") or point it at a real folder, then try again. Nothing written.\n`,
    );
  });

  for (const args of [[], ['--dry-run'], ['--force']]) {
    it(`names a dangling ~/.claude/skills link and what to do, creating nothing ${args.join(' ')}`, async () => {
      mkdirSync(join(home, '.claude'));
      const target = join(outside, 'gone', 'skills');
      symlinkSync(target, join(home, '.claude', 'skills'));
      const result = await run('install-skill', 'claude', ...args);
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `${join(home, '.claude', 'skills')} is a symbolic link to ${target}, which does not exist. Create that folder (mkdir -p "${target}") or remove the link, then try again. Nothing written.\n`,
      });
      assert.equal(existsSync(join(outside, 'gone')), false);
    });
  }

  it('names a --path beneath a file instead of printing ENOTDIR', async () => {
    writeFileSync(join(project, 'notes.txt'), 'mine\n');
    const result = await run('install-skill', 'claude', '--path', 'notes.txt/skills');
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr: `${join(project, 'notes.txt')} is a file, not a folder, so the skill cannot go beneath it. Choose another folder (--path) or move the file away. Nothing written.\n`,
    });
    assert.equal(readFileSync(join(project, 'notes.txt'), 'utf8'), 'mine\n');
  });

  it('refuses --path /proc/nonexistent at once with a sentence, instead of spinning', BOUNDED, async () => {
    const result = await run('install-skill', 'claude', '--path', '/proc/nonexistent');
    assert.deepEqual(result, {
      code: 1,
      stdout: '',
      stderr:
        'Cannot create the folder /proc/nonexistent: the system does not allow new folders in /proc (ENOENT). Choose another folder with --path. Nothing written.\n',
    });
  });

  for (const [what, make] of [
    ['a link to /dev/zero', (file: string) => symlinkSync('/dev/zero', file)],
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
  ] as const) {
    for (const args of [[], ['--force'], ['--dry-run']]) {
      it(
        `refuses an existing SKILL.md that is ${what} without reading it ${args.join(' ')}`,
        BOUNDED,
        async () => {
          mkdirSync(claudeDir(), { recursive: true });
          make(join(claudeDir(), 'SKILL.md'));
          const result = await run('install-skill', 'claude', ...args);
          assert.deepEqual(result, {
            code: 1,
            stdout: '',
            stderr: `${join(claudeDir(), 'SKILL.md')} is not a regular file (a FIFO, a device, or a link to one), so it is neither read nor replaced. Move it away and try again. Nothing written.\n`,
          });
        },
      );
    }
  }

  it('treats an oversized SKILL.md as changed without reading it, and replaces it with --force', async () => {
    mkdirSync(claudeDir(), { recursive: true });
    writeFileSync(join(claudeDir(), 'SKILL.md'), 'x'.repeat(3 * 1024 * 1024));
    const kept = await run('install-skill', 'claude');
    assert.equal(kept.code, 1);
    assert.match(kept.stdout, /SKILL\.md: changed, kept \(--force replaces it\)/);
    const forced = await run('install-skill', 'claude', '--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(readFileSync(join(claudeDir(), 'SKILL.md'), 'utf8'), /^---\nname: notify\n/);
  });

  for (const [tool, folder] of [
    ['claude', '.claude'],
    ['codex', '.agents'],
  ] as const) {
    it(`in project scope, refuses a ${folder} that links outside the project and writes nothing there`, async () => {
      symlinkSync(outside, join(project, folder));
      const result = await run('install-skill', tool, '--scope', 'project', '--force');
      assert.deepEqual(result, {
        code: 1,
        stdout: '',
        stderr: `${join(project, folder)} is a symbolic link to ${outside}, outside the project ${project}. With --scope project the skill stays inside the project: replace the link with a folder, or use --scope user or --path <dir>. Nothing written.\n`,
      });
      assert.deepEqual(readdirSync(outside), []);
    });

    it(`in project scope, installs through a ${folder} link that stays inside the project`, async () => {
      mkdirSync(join(project, 'shared-config'));
      symlinkSync(join(project, 'shared-config'), join(project, folder));
      const result = await run('install-skill', tool, '--scope', 'project');
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(project, 'shared-config', 'skills', 'notify', 'SKILL.md')));
    });
  }

  it('in project scope, refuses a skills folder that links outside the project', async () => {
    mkdirSync(join(project, '.claude'));
    symlinkSync(outside, join(project, '.claude', 'skills'));
    const result = await run('install-skill', 'claude', '--scope', 'project');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /\.claude\/skills is a symbolic link to .*, outside the project /);
    assert.deepEqual(readdirSync(outside), []);
  });
});
