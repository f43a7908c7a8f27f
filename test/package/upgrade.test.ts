import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/broker-process.js';
import {
  compilerFreeBin,
  freshUserEnv,
  installGlobally,
  packTarball,
  ROOT,
  runCommand,
  type CommandResult,
} from '../support/packed-package.js';

/**
 * The release before this one: the last commit before migration 11 (notification revisions), when the
 * package was still called `notify`. Its tarball is built here, from the checkout's own history.
 */
const PREVIOUS = 'b924822';

/** Builds the previous release's tarball in `dir`, with this checkout's node_modules (the same lock). */
async function previousTarball(dir: string): Promise<string> {
  const source = join(dir, 'previous');
  mkdirSync(source);
  const env = { PATH: `${join(process.execPath, '..')}:${process.env['PATH']}`, HOME: dir };
  // Only what the package ships is compiled (src/, the bundles, the page): no tests, no type check of
  // the page, so building it costs seconds, not the minutes of a whole build.
  const steps: [string, string[]][] = [
    ['sh', ['-c', `git -C '${ROOT}' archive ${PREVIOUS} | tar -x -C '${source}'`]],
    [
      'node',
      [
        '-e',
        `require('fs').writeFileSync('tsconfig.src.json', '{"extends":"./tsconfig.json","include":["src"]}')`,
      ],
    ],
    ['node', [join(source, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.src.json']],
    ['node', ['scripts/bundle-client.mjs']],
    ['node', ['scripts/bundle-web.mjs']],
  ];
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(source, 'node_modules'));
  for (const [command, args] of steps) {
    const result = await runCommand(command, args, { env, cwd: source, deadlineMs: 600_000 });
    if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.output}`);
  }
  const packed = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    env,
    cwd: source,
    deadlineMs: 120_000,
  });
  if (packed.code !== 0) throw new Error(`npm pack of ${PREVIOUS} failed:\n${packed.output}`);
  return join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}

/**
 * A person who used the previous release (installed from its tarball: a notification, hooks for
 * Claude) installs this one: everything they had is there, the database migrates, doctor says the old
 * hook points at a path the uninstall removed, and `notifyctl hooks install` brings it up to date.
 */
/** Two releases packed and installed in turn: far longer than the suite's one-minute default. */
const UPGRADE_TIMEOUT = { timeout: 1_500_000 };

describe('upgrading from the previous release', UPGRADE_TIMEOUT, () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-upgrade-'));
  const home = join(dir, 'home');
  const prefix = join(home, '.local');
  const bin = compilerFreeBin(dir);
  const config = join(home, '.config', 'notify', 'config.json');
  let env: NodeJS.ProcessEnv;
  let oldInstall: CommandResult;
  let newInstall: CommandResult;
  let configBefore: string;
  const run = (program: string, args: string[]) =>
    runCommand(join(prefix, 'bin', program), args, { env, deadlineMs: 60_000 });

  /** Runs the installed notifyd to ready, `during` against it, then stops it. */
  async function withBroker(during: () => Promise<void>): Promise<void> {
    const notifyd = spawn(join(prefix, 'bin', 'notifyd'), [], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stop = setTimeout(() => process.kill(-notifyd.pid!, 'SIGKILL'), 120_000);
    const exited = new Promise((resolve) => notifyd.once('exit', resolve));
    try {
      let banner = '';
      await new Promise<void>((resolve, reject) => {
        notifyd.stdout.on('data', (chunk: Buffer) => {
          banner += chunk.toString();
          if (banner.includes('Ctrl+C stops it.')) resolve();
        });
        notifyd.once('exit', (code) => reject(new Error(`notifyd exited with ${code}: ${banner}`)));
      });
      await during();
    } finally {
      process.kill(-notifyd.pid!, 'SIGTERM');
      await exited;
      clearTimeout(stop);
    }
  }

  before(async () => {
    const previous = await previousTarball(dir);
    const current = (await packTarball(dir, { dryRun: false })).filename;
    env = { ...freshUserEnv(home, bin, [join(prefix, 'bin')]), NOTIFY_PORT: String(await freePort()) };
    oldInstall = await installGlobally(previous, env, prefix);
    assert.equal(oldInstall.code, 0, oldInstall.output);
    await withBroker(async () => {
      const sent = await run('notify', ['send', 'before the upgrade', '--type', 'completed']);
      assert.equal(sent.code, 0, sent.output);
    });
    const hooks = await run('notifyctl', ['hooks', 'install', 'claude']);
    assert.equal(hooks.code, 0, hooks.output);
    configBefore = readFileSync(config, 'utf8');
    // The previous release was the package `notify`; this one is `agent-notify`, with the same programs.
    const removed = await runCommand('npm', ['uninstall', '--global', 'notify'], {
      env,
      deadlineMs: 120_000,
    });
    assert.equal(removed.code, 0, removed.output);
    newInstall = await installGlobally(current, env, prefix);
  }, UPGRADE_TIMEOUT);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('installs over the old data', () => {
    assert.equal(newInstall.code, 0, newInstall.output);
  });

  it('keeps the config and its token, and the database, migrated on start', async () => {
    assert.equal(readFileSync(config, 'utf8'), configBefore);
    await withBroker(async () => {
      const listed = await run('notify', ['list', '--json']);
      assert.equal(listed.code, 0, listed.output);
      const [kept] = JSON.parse(listed.stdout) as { title: string; revision: number }[];
      assert.equal(kept?.title, 'before the upgrade');
      // Revisions came with migration 11: the old row has one now.
      assert.equal(kept?.revision, 1);
    });
  });

  it('keeps the hooks; doctor says they point at the removed version until hooks install refreshes them', async () => {
    const before = await run('notifyctl', ['doctor']);
    assert.match(
      before.stdout,
      /^warn {2}hooks {4}claude: installed from a path that no longer exists \(.*\/node_modules\/notify\/dist\/notify-hook\.cjs\); run 'notifyctl hooks install claude' to update$/m,
    );
    const refreshed = await run('notifyctl', ['hooks', 'install', 'claude']);
    assert.equal(refreshed.code, 0, refreshed.output);
    const after = await run('notifyctl', ['doctor']);
    assert.match(after.stdout, /^ok {4}hooks {4}installed for claude$/m);
  });
});
