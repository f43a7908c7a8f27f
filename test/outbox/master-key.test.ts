import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const PROBE = fileURLToPath(new URL('../support/master-key-probe-main.js', import.meta.url));

interface Probe {
  store: string;
  keyHash: string | null;
  warnings: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { env, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} failed: ${stderr}`)) : resolve(stdout),
    ),
  );
}

const parse = (line: string) => JSON.parse(line) as Probe;

describe('secrets master key', () => {
  const home = mkdtempSync(join(tmpdir(), 'notify-master-key-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  // No session bus: no keyring can answer.
  const bare = { PATH: process.env['PATH'], HOME: home };

  it('falls back to an owner-only key file with one warning, and keeps that choice', async () => {
    const dataDir = join(home, 'file-data');
    mkdirSync(dataDir);
    const first = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.deepEqual([first.store, first.warnings], ['file', 1]);
    assert.equal(statSync(join(dataDir, 'secrets.key')).mode & 0o777, 0o600);
    const second = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.deepEqual([second.store, second.keyHash, second.warnings], ['file', first.keyHash, 0]);
  });

  it('keeps the key in a real Secret Service on a private session bus, and never falls back to a file', async () => {
    const dataDir = join(home, 'keyring-data');
    mkdirSync(dataDir);
    // gnome-keyring-daemon unlocks a fresh keyring with the password on stdin; two probes share it.
    const script = [
      'echo test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
      `"${process.execPath}" "${PROBE}" "${dataDir}"`,
      `"${process.execPath}" "${PROBE}" "${dataDir}"`,
    ].join('; ');
    const lines = (await run('dbus-run-session', ['--', 'sh', '-c', script], bare))
      .trim()
      .split('\n')
      .map(parse);
    assert.equal(lines.length, 2);
    assert.equal(lines[0]!.store, 'keyring');
    assert.ok(lines[0]!.keyHash);
    assert.deepEqual(lines[1], { ...lines[0], warnings: 0 });
    assert.equal(existsSync(join(dataDir, 'secrets.key')), false);
    // Later without the keyring: the recorded choice stands; the key is unreadable, not replaced.
    const locked = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.deepEqual(locked, { store: 'keyring', keyHash: null, warnings: 0 });
    assert.equal(existsSync(join(dataDir, 'secrets.key')), false);
  });
});
