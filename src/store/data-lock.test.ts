import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { lockDataFolder } from './data-lock.js';

/** A real live process whose command line names it as a Notify program, as a running broker's does. */
function fakeBroker(name = 'notifyd'): ChildProcess {
  return spawn('bash', ['-c', `exec -a ${name} sleep 60`], { stdio: 'ignore' });
}

async function started(child: ChildProcess, name: string): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    try {
      if (readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').startsWith(name)) return child.pid!;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the stand-in process did not start');
}

function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('the data folder lock (one broker per data folder)', () => {
  let dir: string;
  let data: string;
  let lockFile: string;
  const children: ChildProcess[] = [];
  /** A live process that is not Notify. */
  let bystander: ChildProcess;

  before(() => {
    bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  after(() => bystander.kill());

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-data-lock-'));
    data = join(dir, 'data');
    lockFile = join(data, 'notifyd.lock');
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the folder owner-only and a lock naming this process, removed on release', () => {
    const lock = lockDataFolder(data, 'notifyctl db recover');
    assert.equal(lock.file, lockFile);
    assert.equal(statSync(data).mode & 0o777, 0o700);
    assert.equal(statSync(lockFile).mode & 0o777, 0o600);
    assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid} notifyctl db recover\n`);
    assert.deepEqual(readdirSync(data), ['notifyd.lock'], 'no temporary file is left behind');
    lock.release();
    assert.equal(existsSync(lockFile), false);
  });

  it('names the default holder', () => {
    lockDataFolder(data);
    assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid} another Notify broker\n`);
  });

  it('refuses while a live Notify process holds the lock, naming it, its pid and the folder', async () => {
    const child = fakeBroker();
    children.push(child);
    const pid = await started(child, 'notifyd');
    lockDataFolder(data).release();
    writeFileSync(lockFile, `${pid} a test broker\n`);
    assert.throws(() => lockDataFolder(data), {
      name: 'DataFolderInUseError',
      message: `a test broker (pid ${pid}) is using the data folder ${data}; stop it first (or remove ${lockFile} if pid ${pid} is not Notify)`,
    });
    writeFileSync(lockFile, `${pid}`);
    assert.throws(() => lockDataFolder(data), {
      message: `another Notify process (pid ${pid}) is using the data folder ${data}; stop it first (or remove ${lockFile} if pid ${pid} is not Notify)`,
    });
    assert.equal(readFileSync(lockFile, 'utf8'), `${pid}`, 'the live lock is left alone');
    assert.deepEqual(readdirSync(data), ['notifyd.lock']);
  });

  it('refuses for notifyctl too', async () => {
    const child = fakeBroker('notifyctl');
    children.push(child);
    const pid = await started(child, 'notifyctl');
    lockDataFolder(data).release();
    writeFileSync(lockFile, `${pid} notifyctl db recover\n`);
    assert.throws(() => lockDataFolder(data), { name: 'DataFolderInUseError' });
  });

  const STALE: [what: string, content: () => string][] = [
    ['a dead process', () => `${deadPid()} another Notify broker\n`],
    ['a live process that is not Notify (its pid reused after a reboot)', () => `${bystander.pid} notifyd\n`],
    ['garbage', () => 'not a pid'],
    ['pid 0', () => '0 x'],
    ['a negative pid', () => '-5 x'],
    ['an empty file', () => ''],
  ];
  for (const [what, content] of STALE) {
    it(`takes over a lock left by ${what}`, () => {
      lockDataFolder(data).release();
      writeFileSync(lockFile, content());
      const lock = lockDataFolder(data);
      assert.equal(readFileSync(lockFile, 'utf8'), `${process.pid} another Notify broker\n`);
      assert.deepEqual(readdirSync(data), ['notifyd.lock']);
      lock.release();
      assert.equal(existsSync(lockFile), false, 'a lock taken over is released like any other');
    });
  }

  it('takes over past a takeover left by a process that died in it, but waits for a fresh one', () => {
    lockDataFolder(data).release();
    const takeover = join(data, 'notifyd.lock.takeover');
    writeFileSync(lockFile, `${deadPid()} x\n`);
    writeFileSync(takeover, 'x');
    const old = new Date(Date.now() - 11_000);
    utimesSync(takeover, old, old);
    lockDataFolder(data).release();
    assert.equal(existsSync(takeover), false);

    writeFileSync(lockFile, `${deadPid()} x\n`);
    writeFileSync(takeover, 'x');
    assert.throws(() => lockDataFolder(data), {
      name: 'DataFolderInUseError',
      message: `could not take the lock ${lockFile} of the data folder ${data}; try again`,
    });
    assert.equal(existsSync(takeover), true);
  });

  it('release is quiet when the lock is gone by then', () => {
    const lock = lockDataFolder(data);
    rmSync(lockFile);
    lock.release();
    assert.deepEqual(readdirSync(data), []);
  });

  it('release leaves a lock that another process holds by then', () => {
    const lock = lockDataFolder(data);
    writeFileSync(lockFile, `${bystander.pid} someone else\n`);
    lock.release();
    assert.equal(readFileSync(lockFile, 'utf8'), `${bystander.pid} someone else\n`);
  });
});
