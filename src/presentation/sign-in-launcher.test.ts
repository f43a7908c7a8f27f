import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { launcherDir } from '../config/paths.js';
import { LAUNCHER_MAX_AGE_MS, LauncherError, removeLauncher, writeLauncher } from './sign-in-launcher.js';

const CODE = 'A'.repeat(20) + '_-' + 'b'.repeat(21);
const LINK = `http://127.0.0.1:47821/login?code=${CODE}`;
const NAME = `open-${createHash('sha256').update(CODE).digest('hex').slice(0, 32)}.html`;
const NOBODY = 65534;

describe('writeLauncher: a private page that forwards to the sign-in link', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'notify-launcher-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  let count = 0;
  const folder = () => join(scratch, `run-${++count}`, 'notify');

  it('writes a 0600 file, named after the hash of the code, in a new 0700 folder', () => {
    const dir = folder();
    const path = writeLauncher(LINK, dir);
    assert.equal(path, join(dir, NAME));
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const page = readFileSync(path, 'utf8');
    assert.ok(page.includes(`<meta http-equiv="refresh" content="0;url=${LINK}">`), page);
    assert.ok(page.includes('<meta name="referrer" content="no-referrer">'), page);
    assert.ok(page.includes(`<a href="${LINK}">`), page);
    assert.ok(!path.includes(CODE));
  });

  it('makes a folder that others could enter private again', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    writeLauncher(LINK, dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('refuses a folder that is a symbolic link, and one that belongs to another user', () => {
    const real = join(scratch, 'real');
    mkdirSync(real, { mode: 0o700 });
    const linked = folder();
    mkdirSync(join(linked, '..'), { recursive: true });
    symlinkSync(real, linked);
    assert.throws(
      () => writeLauncher(LINK, linked),
      new LauncherError(`${linked} is not a folder (a symbolic link or a file), so it was not used`),
    );
    assert.deepEqual(readdirSync(real), []);

    const foreign = folder();
    mkdirSync(foreign, { recursive: true, mode: 0o700 });
    chownSync(foreign, NOBODY, NOBODY);
    assert.throws(
      () => writeLauncher(LINK, foreign),
      new LauncherError(
        `the folder ${foreign} belongs to another user (uid ${NOBODY}), not to you (uid ${process.getuid!()}), so it was not used`,
      ),
    );
    assert.deepEqual(readdirSync(foreign), []);
  });

  it('never writes through a file or link already at its name', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(scratch, 'target');
    writeFileSync(target, 'untouched');
    symlinkSync(target, join(dir, NAME));
    assert.throws(() => writeLauncher(LINK, dir), LauncherError);
    assert.equal(readFileSync(target, 'utf8'), 'untouched');
  });

  it('removes launchers older than two minutes, and nothing else', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const now = Date.now();
    const old = join(dir, `open-${'0'.repeat(32)}.html`);
    const recent = join(dir, `open-${'1'.repeat(32)}.html`);
    const other = join(dir, 'notes.txt');
    for (const path of [old, recent, other]) writeFileSync(path, 'x');
    const stale = new Date(now - LAUNCHER_MAX_AGE_MS - 1000);
    utimesSync(old, stale, stale);
    utimesSync(other, stale, stale);
    writeLauncher(LINK, dir, now);
    assert.deepEqual(readdirSync(dir).sort(), [NAME, 'notes.txt', `open-${'1'.repeat(32)}.html`].sort());
  });

  it('removeLauncher removes the launcher of a code by its hash; a missing one is fine', () => {
    const dir = folder();
    const path = writeLauncher(LINK, dir);
    const hash = createHash('sha256').update(CODE).digest('hex');
    removeLauncher(dir, hash);
    assert.equal(existsSync(path), false);
    removeLauncher(dir, hash);
  });
});

describe('launcherDir', () => {
  it('is $XDG_RUNTIME_DIR/notify, else a folder of Notify state, else the per-user temp folder', () => {
    assert.equal(launcherDir({ XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux', '/h'), '/run/user/1000/notify');
    assert.equal(launcherDir({ XDG_STATE_HOME: '/s' }, 'linux', '/h'), '/s/notify/run');
    assert.equal(launcherDir({ XDG_RUNTIME_DIR: 'relative' }, 'linux', '/h'), '/h/.local/state/notify/run');
    assert.equal(launcherDir({ TMPDIR: '/var/folders/x/T' }, 'darwin', '/h'), '/var/folders/x/T/notify');
  });
});
