import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import {
  NOTIFYD,
  createTempHome,
  startBroker,
  writeConfig,
  type TempHome,
} from '../support/broker-process.js';
import { runNode, type ProcessResult } from '../support/run-node.js';
import { assertAllPersisted, startLoad } from './support.js';

/** notifyd as a process: clean stop under load, and refusing to start with a clear message. */

/** Runs notifyd to its end in `home` (it is expected to exit by itself). */
function runNotifyd(home: TempHome): Promise<ProcessResult> {
  return runNode(NOTIFYD, [], { env: home.env });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

describe('notifyd lifecycle', { timeout: 60_000 }, () => {
  it('SIGTERM during load exits 0 and keeps every acknowledged notification', async () => {
    const broker = await startBroker();
    try {
      const load = startLoad(broker, 8);
      await load.reached(100);
      const code = await broker.stop();
      assert.equal(code, 0, 'SIGTERM must stop notifyd cleanly with exit code 0');
      await load.finished;

      const restarted = await startBroker({ home: broker.home });
      try {
        await assertAllPersisted(restarted, load.acked);
      } finally {
        assert.equal(await restarted.stop(), 0);
      }
    } finally {
      broker.home.cleanup();
    }
  });

  it('a taken port: exit 1, stderr names the port and the config file', async () => {
    const blocker = createServer();
    const port = await listen(blocker);
    const home = createTempHome();
    try {
      writeConfig(home, { port });
      const exit = await runNotifyd(home);
      assert.equal(exit.code, 1, `exit code ${exit.code}; stderr: ${exit.stderr}`);
      assert.ok(exit.stderr.includes(String(port)), `stderr must name port ${port}: ${exit.stderr}`);
      assert.ok(exit.stderr.includes(home.configFile), `stderr must name ${home.configFile}: ${exit.stderr}`);
      assert.ok(!exit.stdout.includes('listening'), 'it must not claim to listen');
    } finally {
      blocker.close();
      home.cleanup();
    }
  });

  const MALFORMED: Record<string, Buffer> = {
    'invalid JSON': Buffer.from('{"port": 47821,,}'),
    'truncated JSON': Buffer.from('{"port": 47821, "authToken": "abc'),
    'empty file': Buffer.from(''),
    'a top-level array': Buffer.from('[1, 2, 3]\n'),
    'a wrong field type': Buffer.from('{\n  "port": "forty"\n}\n'),
    'a wrong token type': Buffer.from('{"authToken": 12345}'),
    'invalid UTF-8 and NUL bytes': Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x00, 0x22, 0x3a, 0x31, 0x7d]),
  };

  describe('malformed config.json', { concurrency: true }, () => {
    for (const [problem, bytes] of Object.entries(MALFORMED)) {
      it(`a config.json with ${problem}: exit 1, message names the file, file left byte-identical`, async () => {
        const home = createTempHome();
        try {
          mkdirSync(dirname(home.configFile), { recursive: true });
          writeFileSync(home.configFile, bytes);
          const exit = await runNotifyd(home);
          assert.equal(exit.code, 1, `exit code ${exit.code}; stderr: ${exit.stderr}`);
          assert.ok(
            exit.stderr.includes(home.configFile),
            `stderr must name ${home.configFile}: ${exit.stderr}`,
          );
          assert.ok(!exit.stdout.includes('listening'), 'it must not claim to listen');
          assert.ok(readFileSync(home.configFile).equals(bytes), 'config.json must be left byte-identical');
          assert.deepEqual(
            readdirSync(dirname(home.configFile)),
            ['config.json'],
            'no temp file or replacement left beside config.json',
          );
          assert.ok(!existsSync(home.databaseFile), 'no database is created before the config is readable');
        } finally {
          home.cleanup();
        }
      });
    }
  });
});
