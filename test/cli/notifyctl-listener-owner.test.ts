import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTempHome, type TempHome } from '../support/broker-process.js';
import {
  foreignListenerText,
  NOBODY,
  settle,
  startForeignServer,
  type ForeignServer,
} from '../support/foreign-server.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';
import type { ProcessResult } from '../support/run-node.js';

/** Every notifyctl command that talks to the broker, each with arguments that get it to its first call. */
const API_COMMANDS: readonly string[][] = [
  ['settings', 'get'],
  ['settings', 'set', 'soundsEnabled=false'],
  ['types', 'list'],
  ['types', 'set', 'deploy', '--priority', 'high'],
  ['types', 'remove', 'deploy'],
  ['sounds', 'list'],
  ['sounds', 'import', 'SOUND_FILE'],
  ['sounds', 'preview', 'chime'],
  ['sounds', 'remove', 'chime'],
  ['test-toast'],
  ['providers', 'list'],
  ['providers', 'kinds'],
  ['providers', 'show', 'p1'],
  ['providers', 'add', 'webhook', '--set', 'url=https://hooks.example/notify'],
  ['providers', 'set', 'p1', '--name', 'renamed'],
  ['providers', 'enable', 'p1'],
  ['providers', 'disable', 'p1'],
  ['providers', 'remove', 'p1'],
  ['providers', 'test', 'p1'],
  ['routes', 'list'],
  ['routes', 'show', 'r1'],
  ['routes', 'add', '--provider', 'p1'],
  ['routes', 'set', 'r1', '--name', 'renamed'],
  ['routes', 'enable', 'r1'],
  ['routes', 'disable', 'r1'],
  ['routes', 'remove', 'r1'],
  ['outbox', 'list'],
  ['outbox', 'counts'],
  ['outbox', 'retry', 'o1'],
  ['outbox', 'purge'],
  ['count'],
  ['watch'],
  ['wait', 'n1'],
  ['wait', '--key', 'deploy'],
];

/**
 * Runs notifyctl to its end, or kills it after `limitMs`: a watch or wait that sent its request to the
 * foreign server would otherwise wait for an answer that never comes.
 */
function runNotifyctlFor(args: string[], env: NodeJS.ProcessEnv, limitMs = 8000): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NOTIFYCTL, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const limit = setTimeout(() => child.kill(), limitMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('notifyctl and a listener of another user', () => {
  let server: ForeignServer;
  let home: TempHome;
  let soundFile: string;
  before(async () => {
    server = await startForeignServer('127.0.0.1');
    home = createTempHome();
    soundFile = join(home.home, 'chime.wav');
    writeFileSync(soundFile, Buffer.from('RIFF\u0024\u0000\u0000\u0000WAVEfmt '));
  });
  after(() => {
    server.stop();
    home.cleanup();
  });

  const connection = () => ['--port', String(server.port), '--token', 'notifyctl-secret-token'];

  for (const command of API_COMMANDS) {
    it(`${command.join(' ')} sends nothing to a server of uid ${NOBODY}, says why and exits 1`, async () => {
      const before = server.received().length;
      const args = command.map((word) => (word === 'SOUND_FILE' ? soundFile : word));
      const result = await runNotifyctlFor([...args, ...connection()], home.env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: foreignListenerText(server.port) });
      await settle();
      assert.equal(server.received().slice(before), '', 'not one byte reached the foreign server');
    });
  }

  it(`doctor reports the foreign listener on its broker line, sends nothing and exits 1`, async () => {
    const before = server.received().length;
    const result = await runNotifyctlFor(['doctor', ...connection()], home.env);
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      new RegExp(
        `^fail  broker   the program listening at http://127\\.0\\.0\\.1:${server.port} belongs to another user ` +
          `\\(uid ${NOBODY}\\), so nothing was sent to it; stop it, or run notifyd on another port \\("port" in config\\.json\\)$`,
        'm',
      ),
    );
    await settle();
    assert.equal(server.received().slice(before), '', 'not one byte reached the foreign server');
  });
});
