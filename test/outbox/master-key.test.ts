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
  warnings: string[];
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
    assert.deepEqual([first.store, first.warnings.length], ['file', 1]);
    assert.match(
      first.warnings[0]!,
      /no OS keyring answered; the secrets master key is kept in .*secrets\.key/,
    );
    assert.equal(statSync(join(dataDir, 'secrets.key')).mode & 0o777, 0o600);
    const second = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.deepEqual([second.store, second.keyHash, second.warnings], ['file', first.keyHash, []]);
  });

  it('says that secrets stored before must be set again when the key file was removed', async () => {
    const dataDir = join(home, 'lost-file-data');
    mkdirSync(dataDir);
    const first = parse(await run(process.execPath, [PROBE, dataDir], bare));
    rmSync(join(dataDir, 'secrets.key'));
    const after = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.equal(after.store, 'file');
    assert.notEqual(after.keyHash, first.keyHash);
    assert.deepEqual(after.warnings, [
      `the secrets master key was gone from ${join(dataDir, 'secrets.key')}, so a new one was made; provider secrets stored before it cannot be read until you set them again (notifyctl providers set <id> --secret NAME).`,
    ]);
  });

  it('keeps the key in a real Secret Service on a private session bus, never falls back to a file, and says when the entry was cleared', async () => {
    const dataDir = join(home, 'keyring-data');
    mkdirSync(dataDir);
    // gnome-keyring-daemon unlocks a fresh keyring with the password on stdin; two probes share it.
    const script = [
      'echo test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1',
      `"${process.execPath}" "${PROBE}" "${dataDir}"`,
      `"${process.execPath}" "${PROBE}" "${dataDir}"`,
      // The person clears the keyring entry (a new keyring, say): the next start makes a new key.
      'secret-tool clear service notify',
      `"${process.execPath}" "${PROBE}" "${dataDir}"`,
    ].join('; ');
    const lines = (await run('dbus-run-session', ['--', 'sh', '-c', script], bare))
      .trim()
      .split('\n')
      .map(parse);
    assert.equal(lines.length, 3);
    assert.equal(lines[0]!.store, 'keyring');
    assert.ok(lines[0]!.keyHash);
    assert.deepEqual(lines[1], { ...lines[0], warnings: [] });
    assert.equal(lines[2]!.store, 'keyring');
    assert.ok(lines[2]!.keyHash && lines[2]!.keyHash !== lines[0]!.keyHash, 'a new key');
    assert.deepEqual(lines[2]!.warnings, [
      'the secrets master key was gone from the OS keyring, so a new one was made; provider secrets stored before it cannot be read until you set them again (notifyctl providers set <id> --secret NAME).',
    ]);
    assert.equal(existsSync(join(dataDir, 'secrets.key')), false);
    // Later without the keyring: the recorded choice stands; the key is unreadable, not replaced.
    const locked = parse(await run(process.execPath, [PROBE, dataDir], bare));
    assert.deepEqual(locked, { store: 'keyring', keyHash: null, warnings: [] });
    assert.equal(existsSync(join(dataDir, 'secrets.key')), false);
  });
});
