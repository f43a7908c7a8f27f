/** Slow clients against the real notify-relay run with 1,024 file descriptors, as a small server has. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import { waitFor } from '../support/wait-for.js';

const TRICKLING = 1_100;

let relay: RelayProcess;

before(async () => {
  relay = await startRelay({ maxOpenFiles: 1024, args: ['--request-timeout', '2'] });
});
after(async () => relay.cleanup());

/** One GET from the given loopback address; its status, or the error that ended it. */
function get(path: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: relay.port, path, localAddress, timeout: 10_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error) => resolve(error.message));
    req.end();
  });
}

describe('slow clients', () => {
  it('1,100 connections trickling a body from one address neither starve another client nor stay open past the request timeout', async () => {
    const sockets: Socket[] = [];
    let closed = 0;
    for (let index = 0; index < TRICKLING; index++) {
      const socket = connect({ host: '127.0.0.1', port: relay.port, localAddress: '127.0.0.1' }, () =>
        socket.write(
          'POST /v1/pairings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        ),
      );
      socket.on('error', () => undefined);
      socket.on('close', () => closed++);
      socket.resume();
      sockets.push(socket);
    }
    // A byte a second on every connection still open: activity must not keep a request alive.
    const trickle = setInterval(() => {
      for (const socket of sockets) if (socket.writable) socket.write(' ');
    }, 1_000);
    try {
      await waitFor(
        () => sockets.every((socket) => !socket.connecting),
        'every trickling connection to be accepted or refused',
      );
      assert.equal(
        await get('/.well-known/notify-relay', '127.0.0.2'),
        200,
        'a client at another address is served',
      );
      await waitFor(() => closed === TRICKLING, 'the relay to close every trickling connection', 30_000);
      assert.equal(await get('/.well-known/notify-relay', '127.0.0.1'), 200, 'the relay is still up');
    } finally {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    }
  });
});
