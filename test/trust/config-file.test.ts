import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTempHome, NOTIFYD, startBroker, type TempHome } from '../support/broker-process.js';

const configDir = (home: TempHome) => join(home.home, '.config', 'notify');
const dataDir = (home: TempHome) => join(home.home, '.local', 'share', 'notify');
const logText = (home: TempHome) =>
  readdirSync(home.logDir)
    .map((name) => readFileSync(join(home.logDir, name), 'utf8'))
    .join('');

/** Starts notifyd expecting it to refuse; past the deadline a hung start is killed and fails the test. */
function refusedStart(home: TempHome): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NOTIFYD], { env: home.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('notifyd hung at start'));
    }, 15_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('config.json is read and written safely', () => {
  const NOT_REGULAR: [name: string, make: (file: string) => void, kind: string][] = [
    ['a FIFO', (file) => assert.equal(spawnSync('mkfifo', [file]).status, 0), 'a named pipe (FIFO)'],
    ['a directory', (file) => mkdirSync(file), 'a directory'],
    ['a symlink to /dev/zero', (file) => symlinkSync('/dev/zero', file), 'a device'],
  ];
  for (const [name, make, kind] of NOT_REGULAR) {
    it(`refuses to start, at once and with a clear message, when config.json is ${name}`, async () => {
      const home = createTempHome();
      try {
        mkdirSync(configDir(home), { recursive: true });
        make(home.configFile);
        const result = await refusedStart(home);
        assert.equal(result.code, 1);
        assert.equal(
          result.stderr,
          `Notify cannot start: ${home.configFile} is not a regular file (it is ${kind}); replace it with a regular file, or remove it to have one created\n`,
        );
      } finally {
        home.cleanup();
      }
    });
  }

  it('writes through a symlinked config.json: the link stays a link and its target gets the token', async () => {
    const home = createTempHome();
    const dotfiles = join(home.home, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(configDir(home), { recursive: true });
    writeFileSync(join(dotfiles, 'config.json'), '{"maxVisibleToasts": 3}');
    symlinkSync(join(dotfiles, 'config.json'), home.configFile);
    const broker = await startBroker({ home });
    try {
      assert.ok(lstatSync(home.configFile).isSymbolicLink(), 'config.json is still a link');
      const target = JSON.parse(readFileSync(join(dotfiles, 'config.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(target['authToken'], broker.token);
      assert.equal(target['maxVisibleToasts'], 3);
      assert.equal(statSync(join(dotfiles, 'config.json')).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(dotfiles), ['config.json'], 'no temp file left behind');
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('never follows a symlink planted at a predictable temp file name', async () => {
    const home = createTempHome();
    mkdirSync(configDir(home), { recursive: true });
    const victim = join(home.home, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    // The old name was config.json.<pid>.tmp: cover the pids the next processes are likely to get.
    const next = spawnSync('true').pid!;
    for (let pid = next; pid < next + 3000; pid++) symlinkSync(victim, `${home.configFile}.${pid}.tmp`);
    const broker = await startBroker({ home });
    try {
      assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
      assert.ok(statSync(home.configFile).isFile());
      assert.equal(lstatSync(home.configFile).isSymbolicLink(), false);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });

  it('warns once at start when the config or data folder is writable by others', async () => {
    const home = createTempHome();
    mkdirSync(configDir(home), { recursive: true });
    mkdirSync(dataDir(home), { recursive: true });
    chmodSync(configDir(home), 0o777);
    chmodSync(dataDir(home), 0o775);
    const broker = await startBroker({ home });
    await broker.stop();
    try {
      const warnings = logText(home)
        .split('\n')
        .filter((line) => line.includes('writable by other users'))
        .map((line) => line.replace(/^.*\[WARN\] /, ''));
      assert.deepEqual(warnings, [
        `the config folder ${configDir(home)} is writable by other users (mode 0777); run: chmod go-w '${configDir(home)}'`,
        `the data folder ${dataDir(home)} is writable by other users (mode 0775); run: chmod go-w '${dataDir(home)}'`,
      ]);
    } finally {
      home.cleanup();
    }
  });

  it('warns at start when other users can read the database file', async () => {
    const home = createTempHome();
    const first = await startBroker({ home });
    await first.stop();
    chmodSync(dataDir(home), 0o755);
    chmodSync(home.databaseFile, 0o644);
    const second = await startBroker({ home });
    await second.stop();
    try {
      const warning = `the database ${home.databaseFile} is readable by other users (mode 0644); run: chmod 600 '${home.databaseFile}'`;
      assert.equal(logText(home).split(warning).length - 1, 1, 'warned once, at the second start');
    } finally {
      home.cleanup();
    }
  });
});
