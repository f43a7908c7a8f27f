import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/broker-process.js';
import {
  compilerFreeBin,
  freshUserEnv,
  installGlobally,
  packTarball,
  ROOT,
  runCommand,
  troubleIn,
  type CommandResult,
} from '../support/packed-package.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * `npm install -g` of the packed tarball by a person with an empty HOME, no compiler and no root (npm's
 * prefix set to ~/.local), then the four programs as they would run them. One install for the file.
 */
/** npm pack and a global install take minutes on a busy machine: longer than the suite's one-minute default. */
const PACKAGE_TIMEOUT = { timeout: 600_000 };

describe('npm install -g and npx of the package', PACKAGE_TIMEOUT, () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-global-'));
  const home = join(dir, 'home');
  const prefix = join(home, '.local');
  const bin = compilerFreeBin(dir);
  let env: NodeJS.ProcessEnv;
  let install: CommandResult;
  let tarball: string;
  before(async () => {
    tarball = (await packTarball(dir, { dryRun: false })).filename;
    env = { ...freshUserEnv(home, bin, [join(prefix, 'bin')]), NOTIFY_PORT: String(await freePort()) };
    install = await installGlobally(tarball, env, prefix);
  }, PACKAGE_TIMEOUT);
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (program: string, args: string[]) =>
    runCommand(join(prefix, 'bin', program), args, { env, deadlineMs: 30_000 });

  it('installs into the user prefix without compiling anything or printing a warning', () => {
    assert.equal(install.code, 0, install.output);
    assert.deepEqual(troubleIn(install.output), []);
    const modules = join(prefix, 'lib', 'node_modules');
    assert.equal(existsSync(join(modules, 'better-sqlite3', 'build')), false, 'better-sqlite3 was not built');
    for (const program of ['notify', 'notifyd', 'notifyctl', 'notify-relay'])
      assert.ok(existsSync(join(prefix, 'bin', program)), `${program} is on the PATH`);
  });

  it('gives a notify that prints its version', async () => {
    const result = await run('notify', ['--version']);
    assert.equal(result.code, 0, result.output);
    assert.match(result.stdout, new RegExp(VERSION.replaceAll('.', '\\.')));
  });

  it('gives a notifyd that starts, takes a notification from notify, and a doctor that finds it', async () => {
    const notifyd = spawn(join(prefix, 'bin', 'notifyd'), [], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let banner = '';
    const stop = setTimeout(() => process.kill(-notifyd.pid!, 'SIGKILL'), 60_000);
    try {
      await new Promise<void>((resolve, reject) => {
        notifyd.stdout.on('data', (chunk: Buffer) => {
          banner += chunk.toString();
          if (banner.includes('Ctrl+C stops it.')) resolve();
        });
        notifyd.once('exit', (code) => reject(new Error(`notifyd exited with ${code}: ${banner}`)));
      });
      const sent = await run('notify', ['send', 'hello', '--type', 'completed']);
      assert.equal(sent.code, 0, sent.output);
      // npx runs the package's own client (the bin named after the package) without the global install.
      // A path with a slash, as npx tells a package file from a command: ./name.tgz.
      const npx = await runCommand('npx', ['--yes', `./${basename(tarball)}`, 'send', 'hello from npx'], {
        env: { ...env, PATH: bin },
        cwd: dir,
        deadlineMs: 300_000,
      });
      assert.equal(npx.code, 0, npx.output);
      const listed = await run('notify', ['list']);
      assert.match(listed.stdout, /hello\b/);
      assert.match(listed.stdout, /hello from npx/);
      const doctor = await run('notifyctl', ['doctor']);
      assert.match(doctor.stdout, /^ok\s+config\s/m, doctor.output);
      assert.match(
        doctor.stdout,
        new RegExp(`^ok\\s+broker\\s+Notify ${VERSION.replaceAll('.', '\\.')} answers`, 'm'),
      );
      assert.match(doctor.stdout, /^ok\s+token\s/m);
    } finally {
      clearTimeout(stop);
      process.kill(-notifyd.pid!, 'SIGTERM');
    }
  });

  it('gives a notify-relay that explains itself', async () => {
    const result = await run('notify-relay', ['--help']);
    assert.equal(result.code, 0, result.output);
    assert.match(result.stdout, /notify-relay/);
  });
});
