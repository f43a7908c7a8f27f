import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { HookTool } from '../../src/domain/hooks/decision.js';
import { createTempHome, type TempHome } from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';
import { HOOK, NOTIFYCTL } from './support.js';

const SETTINGS: Record<HookTool, string> = {
  claude: '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
};

const EVENTS: Record<HookTool, string[]> = {
  claude: [
    'Notification',
    'PermissionRequest',
    'Stop',
    'StopFailure',
    'UserPromptSubmit',
    'PostToolUse',
    'PostToolUseFailure',
    'PermissionDenied',
    'Elicitation',
    'ElicitationResult',
    'SessionStart',
    'SessionEnd',
  ],
  codex: [
    'PermissionRequest',
    'Stop',
    'UserPromptSubmit',
    'PostToolUse',
    'Interrupt',
    'SessionStart',
    'SessionEnd',
  ],
  gemini: ['Notification', 'AfterAgent', 'BeforeAgent', 'AfterTool', 'SessionStart', 'SessionEnd'],
};

/** What install, status and doctor add while Codex has not trusted Notify's entries (as after every install). */
const CODEX_SKIPS =
  'Codex skips them (not trusted yet: PermissionRequest, Stop, UserPromptSubmit, PostToolUse, Interrupt, SessionStart, SessionEnd); start codex and choose "Trust all and continue" at "Hooks need review" (or trust them in /hooks)';

const OTHER_HOOKS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "Stop": [
            { "matcher": "", "hooks": [ { "type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff" } ] }
        ],
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] } ]
    }
}
`;

/** Existing settings files of every shape (undefined: no file). */
const SHAPES: Record<string, string | undefined> = {
  none: undefined,
  'an empty file': '',
  'an empty object': '{}\n',
  'empty hooks': '{\n  "hooks": {}\n}',
  'other settings and hooks': OTHER_HOOKS,
};

const invocation = (tool: HookTool) => `${process.execPath} ${HOOK} ${tool}`;
/**
 * Every event but a waiting PermissionRequest: the shell ignores the tool's early stop signal and
 * starts the adapter again when one killed it while Node started.
 */
const command = (tool: HookTool) =>
  `trap '' TERM INT HUP; s=; setsid -w true 2>/dev/null && s='setsid -w'; for start in 1 2 3; do $s ${invocation(tool)}; [ $? -gt 128 ] || exit 0; done 2>/dev/null`;
/**
 * The tool's PermissionRequest timeout with answers on: Claude Code keeps its dialog working while the
 * hook waits (10 minutes); Codex shows its dialog only once the hook returns (10 s of waiting).
 */
const DEFAULT_TIMEOUT: Record<HookTool, number> = { claude: 600, codex: 20, gemini: 0 };
/** The PermissionRequest command with answers on: the hook waits 10 s less than the tool's timeout. */
const answering = (tool: HookTool, timeout = DEFAULT_TIMEOUT[tool]) =>
  `${invocation(tool)} --answer-wait=${timeout - 10}`;
const answersOn = (tool: 'claude' | 'codex', label: string, scope = '') =>
  tool === 'codex'
    ? `Permission answers are on: Codex shows its own approval dialog only once the hook returns, so the hook waits 10 seconds for your answer from a toast, the tray, notifyctl answer or the web page, then hands the decision to that dialog in the terminal (the request then says "Answer in the terminal."). To wait longer: notifyctl hooks install codex${scope} --answer-wait <seconds>. To turn them off: notifyctl hooks install codex${scope} --no-answers\n`
    : `Permission answers are on: ${label}'s permission prompts wait up to 10 minutes for your answer from a toast, the tray, notifyctl answer or the web page, while its own dialog still works. To turn them off: notifyctl hooks install ${tool}${scope} --no-answers\n`;

function notifyctl(home: TempHome, args: string[], cwd = home.home) {
  return runNode(NOTIFYCTL, args, { env: home.env, cwd });
}

function read(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

function put(file: string, text: string | undefined): void {
  if (text === undefined) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Events whose groups run our command, read from the file as the tool would. */
function ourEvents(file: string, tool: HookTool): string[] {
  const hooks = (
    JSON.parse(readFileSync(file, 'utf8')) as { hooks?: Record<string, { hooks: { command: string }[] }[]> }
  ).hooks;
  return Object.entries(hooks ?? {})
    .filter(([, groups]) =>
      groups.some((group) =>
        group.hooks.some((entry) => [command(tool), answering(tool)].includes(entry.command)),
      ),
    )
    .map(([event]) => event);
}

for (const tool of ['claude', 'codex', 'gemini'] as const) {
  describe(`notifyctl hooks install/uninstall ${tool}`, () => {
    for (const [shape, original] of Object.entries(SHAPES)) {
      it(`adds its hooks to ${shape}, keeps the rest, and uninstall gives back the same file`, async () => {
        const home = createTempHome();
        try {
          const file = join(home.home, SETTINGS[tool]);
          put(file, original);
          const installed = await notifyctl(home, ['hooks', 'install', tool]);
          assert.equal(installed.code, 0, installed.stderr);
          assert.deepEqual(ourEvents(file, tool).sort(), [...EVENTS[tool]].sort());
          if (original !== undefined && original.trim() !== '') {
            const withoutHooks = (text: string) => {
              const settings = JSON.parse(text) as Record<string, unknown>;
              delete settings['hooks'];
              return settings;
            };
            assert.deepEqual(withoutHooks(read(file)!), withoutHooks(original));
          }
          if (original === OTHER_HOOKS) {
            assert.match(read(file)!, /^ {4}"model"/m, 'the file keeps its 4-space indent');
            assert.match(read(file)!, /afplay .*Glass\.aiff/);
            assert.match(read(file)!, /\.\/guard\.sh/);
          }
          assert.equal(read(`${file}.notify-backup`), original);

          const again = await notifyctl(home, ['hooks', 'install', tool]);
          assert.equal(again.code, 0);
          assert.match(again.stdout, /are already installed in .*; nothing changed\.\n/);

          const removed = await notifyctl(home, ['hooks', 'uninstall', tool]);
          assert.equal(removed.code, 0, removed.stderr);
          assert.equal(read(file), original);
          assert.equal(read(`${file}.notify-backup`), undefined);
        } finally {
          home.cleanup();
        }
      });
    }
  });
}

describe('notifyctl hooks install details', () => {
  const home = createTempHome();
  after(() => home.cleanup());
  const claude = join(home.home, SETTINGS.claude);

  it('writes absolute paths to this node and this checkout, and a timeout in the unit of each tool', async () => {
    for (const tool of ['claude', 'codex', 'gemini'] as const) {
      assert.equal((await notifyctl(home, ['hooks', 'install', tool])).code, 0);
      const settings = JSON.parse(read(join(home.home, SETTINGS[tool]))!) as {
        hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
      };
      const entry = settings.hooks['Stop' in settings.hooks ? 'Stop' : 'AfterAgent']![0]!.hooks[0]!;
      assert.deepEqual(
        entry,
        tool === 'gemini'
          ? { name: 'notify', type: 'command', command: command(tool), timeout: 5000 }
          : { type: 'command', command: command(tool), timeout: 5 },
      );
      if (tool === 'gemini') continue;
      assert.deepEqual(settings.hooks['PermissionRequest']![0]!.hooks[0], {
        type: 'command',
        command: answering(tool),
        timeout: DEFAULT_TIMEOUT[tool],
      });
      if (tool !== 'codex') continue;
      // Codex 0.169.0 caps these two at 3 s and warns about a longer timeout at every start.
      for (const capped of ['SessionEnd', 'Interrupt']) {
        assert.deepEqual(settings.hooks[capped]![0]!.hooks[0], {
          type: 'command',
          command: command(tool),
          timeout: 3,
        });
      }
    }
  });

  it('prints what it did and what the person still has to do', async () => {
    const result = await notifyctl(home, ['hooks', 'install', 'codex', '--scope', 'project'], home.home);
    assert.equal(result.code, 0);
    const file = join(home.home, '.codex', 'hooks.json');
    assert.equal(
      result.stdout,
      `Notify's Codex hooks are already installed in ${file}; nothing changed.\n` +
        answersOn('codex', 'Codex', ' --scope project') +
        `Now: ${CODEX_SKIPS}.\n`,
    );
    const removed = await notifyctl(home, ['hooks', 'uninstall', 'codex']);
    assert.equal(
      removed.stdout,
      `Removed Notify's Codex hooks from ${file} (the file held nothing else, so it is gone).\n`,
    );
    const installed = await notifyctl(home, ['hooks', 'install', 'codex']);
    assert.equal(
      installed.stdout,
      `Installed Notify's Codex hooks in ${file} (PermissionRequest, Stop, UserPromptSubmit, PostToolUse, Interrupt, SessionStart, SessionEnd).\n` +
        answersOn('codex', 'Codex') +
        'Codex asks you to review new or changed hooks when it starts ("Hooks need review"; or open /hooks) and runs them only once you trust them; `codex exec` skips untrusted hooks without a word. Every install that changes an entry needs that review again.\n' +
        `Now: ${CODEX_SKIPS}.\n`,
    );
  });

  it('turns permission answers off with --no-answers and on again, in place, with a timeout of choice', async () => {
    const codex = join(home.home, SETTINGS.codex);
    const permission = () =>
      (JSON.parse(read(codex)!) as { hooks: Record<string, { hooks: unknown[] }[]> }).hooks[
        'PermissionRequest'
      ]!;
    const off = await notifyctl(home, ['hooks', 'install', 'codex', '--no-answers']);
    assert.equal(off.code, 0, off.stderr);
    assert.match(
      off.stdout,
      /^Permission answers are off: permission prompts are answered in the terminal only\. To turn them on: notifyctl hooks install codex$/m,
    );
    assert.deepEqual(permission(), [{ hooks: [{ type: 'command', command: command('codex'), timeout: 5 }] }]);
    const status = await notifyctl(home, ['hooks', 'status', 'codex']);
    assert.ok(
      status.stdout.startsWith(`codex   user     installed (7 events); ${CODEX_SKIPS}  `),
      status.stdout,
    );
    const longer = await notifyctl(home, ['hooks', 'install', 'codex', '--permission-timeout', '1800']);
    assert.equal(longer.code, 0, longer.stderr);
    assert.match(longer.stdout, /so the hook waits 1790 seconds for your answer/);
    assert.deepEqual(permission(), [
      { hooks: [{ type: 'command', command: answering('codex', 1800), timeout: 1800 }] },
    ]);
    const odd = await notifyctl(home, ['hooks', 'install', 'codex', '--permission-timeout', '95']);
    assert.match(odd.stdout, /so the hook waits 85 seconds for your answer/);
    const back = await notifyctl(home, ['hooks', 'install', 'codex']);
    assert.equal(back.code, 0);
    assert.deepEqual(permission(), [
      { hooks: [{ type: 'command', command: answering('codex'), timeout: 20 }] },
    ]);
    const longerWait = await notifyctl(home, ['hooks', 'install', 'codex', '--answer-wait', '120']);
    assert.equal(longerWait.code, 0, longerWait.stderr);
    assert.match(longerWait.stdout, /so the hook waits 2 minutes for your answer/);
    assert.deepEqual(permission(), [
      { hooks: [{ type: 'command', command: answering('codex', 130), timeout: 130 }] },
    ]);
    const both = await notifyctl(home, ['hooks', 'install', 'codex', '--answer-wait', '5', '--no-answers']);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--answer-wait and --no-answers exclude each other/);
    assert.equal((await notifyctl(home, ['hooks', 'install', 'codex'])).code, 0);
    const same = await notifyctl(home, ['hooks', 'install', 'codex']);
    assert.equal(
      same.stdout,
      `Notify's Codex hooks are already installed in ${codex}; nothing changed.\n` +
        answersOn('codex', 'Codex') +
        `Now: ${CODEX_SKIPS}.\n`,
    );
  });

  it('refuses answer options it cannot honour', async () => {
    const cases: [string[], string][] = [
      [
        ['install', 'gemini', '--no-answers'],
        "--no-answers applies to claude and codex only: Gemini CLI's hooks cannot answer its permission prompts.",
      ],
      [
        ['install', 'claude', '--permission-timeout', '10'],
        '--permission-timeout must be a whole number of seconds from 30 to 3600.',
      ],
      [
        ['install', 'claude', '--permission-timeout', '10m'],
        '--permission-timeout must be a whole number of seconds from 30 to 3600.',
      ],
      [
        ['install', 'claude', '--permission-timeout', '4000'],
        '--permission-timeout must be a whole number of seconds from 30 to 3600.',
      ],
      [
        ['install', 'codex', '--answer-wait', '0'],
        '--answer-wait must be a whole number of seconds from 1 to 3590.',
      ],
      [
        ['install', 'gemini', '--answer-wait', '10'],
        "--answer-wait applies to claude and codex only: Gemini CLI's hooks cannot answer its permission prompts.",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await notifyctl(home, ['hooks', ...args]);
      assert.deepEqual(
        { code: result.code, stdout: result.stdout, stderr: result.stderr },
        {
          code: 1,
          stdout: '',
          stderr: `notifyctl hooks: ${message}\n`,
        },
      );
    }
    for (const args of [
      ['install', 'claude', '--no-answers', '--permission-timeout', '60'],
      ['uninstall', 'claude', '--no-answers'],
    ]) {
      const result = await notifyctl(home, ['hooks', ...args]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^notifyctl hooks: --(no-answers|permission-timeout) (and|belongs)/);
    }
  });

  it('installs into the current project with --scope project', async () => {
    const project = mkdtempSync(join(home.home, 'project-'));
    const result = await notifyctl(home, ['hooks', 'install', 'claude', '--scope', 'project'], project);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      ourEvents(join(project, '.claude', 'settings.json'), 'claude').length,
      EVENTS.claude.length,
    );
  });

  it('shows the diff with --dry-run and changes nothing', async () => {
    const project = mkdtempSync(join(home.home, 'dry-'));
    const file = join(project, '.gemini', 'settings.json');
    put(file, '{\n  "theme": "dark"\n}\n');
    const result = await notifyctl(
      home,
      ['hooks', 'install', 'gemini', '--scope', 'project', '--dry-run'],
      project,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^--- .*settings\.json\tcurrent\n\+\+\+ .*settings\.json\tafter\n/m);
    assert.match(result.stdout, /^-\s+"theme": "dark"\n\+\s+"theme": "dark",\n/m);
    assert.ok(result.stdout.includes(`+            "command": ${JSON.stringify(command('gemini'))},`));
    assert.ok(result.stdout.endsWith(`Dry run: ${file} was not changed.\n`));
    assert.equal(read(file), '{\n  "theme": "dark"\n}\n');
    assert.equal(read(`${file}.notify-backup`), undefined);
  });

  it('brings an entry from another checkout up to date instead of adding a second one', async () => {
    const stale = command('claude').replace(HOOK, '/old/checkout/dist/notify-hook.cjs');
    const text = read(claude)!.split(command('claude')).join(stale);
    writeFileSync(claude, text);
    const status = await notifyctl(home, ['hooks', 'status', 'claude']);
    assert.match(
      status.stdout,
      /^claude {2}user {5}installed from a path that no longer exists \(\/old\/checkout\/dist\/notify-hook\.cjs\); run 'notifyctl hooks install claude' to update {2}/m,
    );
    assert.equal((await notifyctl(home, ['hooks', 'install', 'claude'])).code, 0);
    assert.deepEqual(ourEvents(claude, 'claude').length, EVENTS.claude.length);
    assert.ok(!read(claude)!.includes('/old/checkout'));
  });

  it('brings the bare entries of an older install up to date: they die of a stop signal while Node starts', async () => {
    const text = read(claude)!
      .split(JSON.stringify(command('claude')))
      .join(JSON.stringify(invocation('claude')));
    writeFileSync(claude, text);
    const status = await notifyctl(home, ['hooks', 'status', 'claude']);
    assert.match(
      status.stdout,
      /^claude {2}user {5}installed by an older Notify or from another checkout or node; run 'notifyctl hooks install claude' to update {2}/m,
    );
    assert.equal((await notifyctl(home, ['hooks', 'install', 'claude'])).code, 0);
    const hooks = (JSON.parse(read(claude)!) as { hooks: Record<string, { hooks: { command: string }[] }[]> })
      .hooks;
    assert.equal(hooks['StopFailure']!.length, 1);
    assert.equal(hooks['StopFailure']![0]!.hooks[0]!.command, command('claude'));
  });

  it('keeps what the person added after install when uninstalling', async () => {
    const settings = JSON.parse(read(claude)!) as Record<string, unknown>;
    writeFileSync(claude, JSON.stringify({ ...settings, model: 'sonnet' }, null, 2));
    assert.equal((await notifyctl(home, ['hooks', 'uninstall', 'claude'])).code, 0);
    assert.deepEqual(JSON.parse(read(claude)!), { model: 'sonnet' });
    const again = await notifyctl(home, ['hooks', 'uninstall', 'claude']);
    assert.equal(
      again.stdout,
      `Notify's Claude Code hooks are not installed in ${claude}; nothing changed.\n`,
    );
  });

  it('says what is installed where', async () => {
    const result = await notifyctl(home, ['hooks', 'status']);
    assert.equal(result.code, 0);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 6);
    assert.match(lines[0]!, /^claude {2}user {5}not installed {2}.*\/\.claude\/settings\.json$/);
    assert.ok(lines[2]!.startsWith(`codex   user     installed (7 events); ${CODEX_SKIPS}  `), lines[2]);
    assert.match(lines[2]!, /\/\.codex\/hooks\.json$/);
    assert.match(lines[4]!, /^gemini {2}user {5}installed \(6 events\) {2}.*\/\.gemini\/settings\.json$/);
  });
});

describe('notifyctl hooks with a malformed settings file', () => {
  const home = createTempHome();
  after(() => home.cleanup());
  const cases: Record<string, [string, string]> = {
    'broken JSON': ['{"hooks": {', 'it is not valid JSON'],
    'a JSON array': ['[]', 'it does not hold a JSON object'],
    'hooks that are a list': ['{"hooks": []}', 'its "hooks" field is not an object'],
  };
  for (const [name, [text, problem]] of Object.entries(cases)) {
    it(`refuses ${name} with a clear message and leaves the file as it was`, async () => {
      const file = join(home.home, SETTINGS.claude);
      put(file, text);
      for (const action of ['install', 'uninstall']) {
        const result = await notifyctl(home, ['hooks', action, 'claude']);
        assert.equal(result.code, 1);
        assert.equal(result.stdout, '');
        assert.ok(
          result.stderr.startsWith(`notifyctl hooks: ${file} was left as it is: ${problem}`),
          result.stderr,
        );
        assert.ok(
          result.stderr.endsWith('.\nFix or move the file, then run the command again.\n'),
          result.stderr,
        );
        assert.equal(read(file), text);
        assert.equal(read(`${file}.notify-backup`), undefined);
      }
    });
  }

  it('reports an unknown tool, action or scope with the usage', async () => {
    const result = await notifyctl(home, ['hooks', 'install', 'cursor']);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      "notifyctl hooks: unknown tool 'cursor'.\n" +
        'Usage: notifyctl hooks install <claude|codex|gemini> [--scope user|project] [--dry-run]\n' +
        '                               [--answer-wait <seconds> | --permission-timeout <seconds>\n' +
        '                                | --no-answers]\n' +
        '       notifyctl hooks uninstall <claude|codex|gemini> [--scope user|project] [--dry-run]\n' +
        '       notifyctl hooks status [claude|codex|gemini]\n',
    );
    const scope = await notifyctl(home, ['hooks', 'install', 'claude', '--scope', 'global']);
    assert.equal(scope.stderr, 'notifyctl hooks: --scope must be user or project.\n');
  });
});

describe('notifyctl hooks on a linked settings file', () => {
  const home = createTempHome();
  after(() => home.cleanup());

  it('writes where the link points, keeps the link and the mode, and gives the file back on uninstall', async () => {
    const dotfiles = join(home.home, 'dotfiles', 'claude-settings.json');
    put(dotfiles, '{\n  "model": "opus"\n}\n');
    chmodSync(dotfiles, 0o600);
    const link = join(home.home, SETTINGS.claude);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(dotfiles, link);
    assert.equal((await notifyctl(home, ['hooks', 'install', 'claude'])).code, 0);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(ourEvents(dotfiles, 'claude').length, EVENTS.claude.length);
    assert.equal(statSync(dotfiles).mode & 0o777, 0o600);
    assert.equal((await notifyctl(home, ['hooks', 'uninstall', 'claude'])).code, 0);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(read(dotfiles), '{\n  "model": "opus"\n}\n');
  });
});

describe('notifyctl hooks backup', () => {
  const home = createTempHome();
  after(() => home.cleanup());
  const file = join(home.home, SETTINGS.claude);
  const backup = `${file}.notify-backup`;
  const original = '{\n  "env": { "ANTHROPIC_API_KEY": "sk-secret" }\n}\n';
  /** Another user's uid when the tests run as root (sudo with the person's HOME); ours otherwise. */
  const owner = process.getuid?.() === 0 ? 65534 : process.getuid!();
  const attributes = (path: string) => {
    const stat = statSync(path);
    return { mode: stat.mode & 0o777, uid: stat.uid, gid: stat.gid };
  };

  it('keeps the mode and owner of the settings file, in the file and in its backup', async () => {
    put(file, original);
    chmodSync(file, 0o600);
    chownSync(file, owner, owner);
    const installed = await notifyctl(home, ['hooks', 'install', 'claude']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, new RegExp(`^The file as it was before: ${backup}$`, 'm'));
    assert.equal(read(backup), original);
    assert.deepEqual(attributes(backup), { mode: 0o600, uid: owner, gid: owner });
    assert.deepEqual(attributes(file), { mode: 0o600, uid: owner, gid: owner });
  });

  it('says where the backup stays when the file changed since install', async () => {
    const edited = { ...(JSON.parse(read(file)!) as Record<string, unknown>), model: 'sonnet' };
    writeFileSync(file, JSON.stringify(edited, null, 2));
    const removed = await notifyctl(home, ['hooks', 'uninstall', 'claude']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      removed.stdout,
      `Removed Notify's Claude Code hooks from ${file}.\n` +
        `The backup taken at install was kept: ${backup} (the file changed since, so it was not put back). Remove it when you no longer need it.\n`,
    );
    assert.equal(read(backup), original);
  });

  it('replaces a stale backup on the next install, saying so, so uninstall gives back the newer file', async () => {
    const before = read(file)!;
    const installed = await notifyctl(home, ['hooks', 'install', 'claude']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(
      installed.stdout,
      new RegExp(
        `^The file as it was before: ${backup} \\(it replaces the backup an earlier install left\\)\\.$`,
        'm',
      ),
    );
    assert.equal(read(backup), before);
    assert.deepEqual(attributes(backup), { mode: 0o600, uid: owner, gid: owner });
    assert.equal((await notifyctl(home, ['hooks', 'uninstall', 'claude'])).code, 0);
    assert.equal(read(file), before);
    assert.equal(read(backup), undefined);
  });
});
