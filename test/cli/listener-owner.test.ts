import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { createTempHome } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';

const NOBODY = 65534;

/**
 * A real HTTP server owned by another user (nobody), as a neighbour on a shared machine could start
 * while the broker is down. It prints every byte it receives, so the test sees whether anything leaked.
 */
async function startForeignServer(
  host: string,
): Promise<{ port: number; received: () => string; stop: () => void }> {
  const script = `
    const server = require('node:net').createServer((socket) => {
      socket.on('data', (chunk) => process.stdout.write('RECEIVED ' + JSON.stringify(chunk.toString()) + '\\n'));
      socket.on('error', () => {});
    });
    server.listen(0, ${JSON.stringify(host)}, () => console.log('PORT ' + server.address().port));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: '/',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server as nobody exited with ${code}: ${output}`)));
  });
  return { port, received: () => output.replace(/^PORT \d+\n/, ''), stop: () => child.kill() };
}

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
          assert.deepEqual(result, {
            code: 1,
            stdout: '',
            stderr:
              `The program listening at http://127.0.0.1:${server.port} belongs to another user (uid ${NOBODY}), not to you (uid ${process.getuid!()}), ` +
              `so nothing was sent to it: it could be someone else's program waiting for your token. ` +
              `Stop that program, or run notifyd on another port ("port" in config.json) and use that port (--port or NOTIFY_PORT).\n`,
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
          assert.equal(server.received(), '', 'not one byte reached the foreign server');
        } finally {
          server.stop();
          home.cleanup();
        }
      });
    }
  }
});
