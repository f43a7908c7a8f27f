import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createTempHome, writeConfig, type TempHome } from '../support/broker-process.js';
import { NOBODY, settle, startForeignServer } from '../support/foreign-server.js';
import { runWithUnlistedSockets } from '../support/unlisted-sockets.js';
import { fixtures, HOOK, NOTIFYCTL, runHook } from './support.js';

const STOP = JSON.stringify(fixtures('claude')['Stop']);
const TOKEN = 'hook-secret-token-0123456789';

function logLines(home: TempHome): string[] {
  const files = readdirSync(home.logDir).filter((name) => /^notify-\d{8}\.log$/.test(name));
  return files.flatMap((file) => readFileSync(join(home.logDir, file), 'utf8').split('\n').filter(Boolean));
}

describe('the hook and a listener of another user', () => {
  for (const host of ['127.0.0.1', '::']) {
    for (const [via, script, args] of [
      ['notify-hook.cjs', HOOK, ['claude']],
      ['notifyctl hook', NOTIFYCTL, ['hook', 'claude']],
    ] as const) {
      it(`${via} sends nothing (no token, no event) to a server of uid ${NOBODY} on ${host}, exits 0 silently and logs why`, async () => {
        const server = await startForeignServer(host);
        const home = createTempHome();
        try {
          writeConfig(home, { port: server.port, authToken: TOKEN });
          const result = await runHook([...args], STOP, home.env, script);
          assert.deepEqual(
            { code: result.code, stdout: result.stdout, stderr: result.stderr },
            { code: 0, stdout: '', stderr: '' },
          );
          await settle();
          assert.equal(server.received(), '', 'not one byte reached the foreign server');
          const lines = logLines(home);
          assert.equal(lines.length, 1);
          assert.match(
            lines[0]!,
            new RegExp(
              `\\[WARN\\] hook claude Stop: raise completion -> not sent: the program listening at ` +
                `http://127\\.0\\.0\\.1:${server.port} belongs to uid ${NOBODY}, not to you$`,
            ),
          );
        } finally {
          server.stop();
          home.cleanup();
        }
      });
    }
  }

  it('sends nothing when /proc lists no socket for the connection, even to a listener of its own user', async () => {
    const server = await startForeignServer('127.0.0.1', undefined);
    const home = createTempHome();
    try {
      writeConfig(home, { port: server.port, authToken: TOKEN });
      const result = await runWithUnlistedSockets(HOOK, ['claude'], { env: home.env, stdin: STOP });
      assert.deepEqual(result, { code: 0, stdout: '', stderr: '' });
      await settle();
      assert.equal(server.received(), '', 'not one byte reached the listener');
      assert.match(
        logLines(home).at(-1)!,
        new RegExp(
          `\\[WARN\\] hook claude Stop: raise completion -> not sent: could not find out who owns the program ` +
            `listening at http://127\\.0\\.0\\.1:${server.port}$`,
        ),
      );
    } finally {
      server.stop();
      home.cleanup();
    }
  });
});
