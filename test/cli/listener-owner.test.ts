import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTempHome } from '../support/broker-process.js';
import { foreignListenerText, NOBODY, settle, startForeignServer } from '../support/foreign-server.js';
import { NOTIFY, runNotify } from '../support/notify-cli.js';
import { runWithUnlistedSockets } from '../support/unlisted-sockets.js';

describe('notify and a listener of another user', () => {
  for (const host of ['127.0.0.1', '::']) {
    for (const command of [['send', 'Deploy?', '--key', 'k'], ['list'], ['health']]) {
      it(`${command[0]} sends nothing (no token, no notification) to a server of uid ${NOBODY} on ${host} and exits 1`, async () => {
        const server = await startForeignServer(host);
        const home = createTempHome();
        try {
          const result = await runNotify(
            [...command, '--port', String(server.port), '--token', 'my-secret-token'],
            {
              env: home.env,
            },
          );
          assert.deepEqual(result, { code: 1, stdout: '', stderr: foreignListenerText(server.port) });
          await settle();
          assert.equal(server.received(), '', 'not one byte reached the foreign server');
        } finally {
          server.stop();
          home.cleanup();
        }
      });
    }
  }
});

describe('notify when /proc lists no socket for the connection', () => {
  it('the harness: /proc/net/tcp and tcp6 are readable and hold their header line only', async () => {
    const result = await runWithUnlistedSockets(
      '-e',
      [
        `const { readFileSync } = require('node:fs');
         for (const table of ['tcp', 'tcp6']) console.log(readFileSync('/proc/net/' + table, 'utf8').trim().split('\\n').length);`,
      ],
      { env: { PATH: process.env['PATH'] } },
    );
    assert.deepEqual(result, { code: 0, stdout: '1\n1\n', stderr: '' });
  });

  // The listener is this test's own (same uid), so only the missing row can make notify refuse it:
  // an owner that cannot be found counts as foreign rather than as fine.
  for (const command of [['send', 'Deploy?', '--key', 'k'], ['health']]) {
    it(`${command[0]} refuses, sends nothing and exits 1`, async () => {
      const server = await startForeignServer('127.0.0.1', undefined);
      const home = createTempHome();
      try {
        const result = await runWithUnlistedSockets(
          NOTIFY,
          [...command, '--port', String(server.port), '--token', 'my-secret-token'],
          { env: home.env },
        );
        assert.deepEqual(result, {
          code: 1,
          stdout: '',
          stderr:
            `Notify could not find out which user owns the program listening at http://127.0.0.1:${server.port}, ` +
            `so nothing was sent to it: it could be someone else's program waiting for your token. ` +
            `Stop that program, or run notifyd on another port ("port" in config.json) and use that port (--port or NOTIFY_PORT).\n`,
        });
        await settle();
        assert.equal(server.received(), '', 'not one byte reached the listener');
      } finally {
        server.stop();
        home.cleanup();
      }
    });
  }
});
