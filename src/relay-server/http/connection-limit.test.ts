import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { addressKey, limitConnectionsPerAddress, MAX_CONNECTIONS_PER_ADDRESS } from './connection-limit.js';

describe('the address a connection counts against', () => {
  it('is an IPv4 address as is, also when the socket shows it mapped into IPv6', () => {
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey('::ffff:198.51.100.23'), '198.51.100.23');
    assert.equal(addressKey('::FFFF:203.0.113.9'), '203.0.113.9');
    assert.equal(addressKey(undefined), '');
  });

  it("is an IPv6 address's /64, however the address is written", () => {
    const key = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:aaaa:bbbb:cccc:dddd',
      '2001:0db8:0000:0001:0:0:0:2',
      '2001:db8::1:0:0:0:3',
      '2001:db8:0:1:ffff::',
    ])
      assert.equal(addressKey(address), key, address);
    assert.notEqual(addressKey('2001:db8:0:2::1'), key, 'the next /64 is another subscriber');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('fe80::1'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('::ffff:1:2'), '0:0:0:0::/64', 'not a mapped IPv4 address');
    assert.equal(
      addressKey('2001:db8::ffff:192.0.2.1'),
      '2001:db8:0:0::/64',
      'an IPv4 address inside an IPv6 one',
    );
  });
});

describe('the connection limit per address', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  after(() => {
    sockets.forEach((socket) => socket.destroy());
    servers.forEach((server) => server.close());
  });

  /** A loopback server limited to `max` connections per address; `held` are the ones it serves. */
  async function limited(max: number): Promise<{ port: number; held: Socket[] }> {
    const server = createServer();
    limitConnectionsPerAddress(server, max);
    servers.push(server);
    const held: Socket[] = [];
    server.on('connection', (socket) => {
      if (!socket.destroyed) held.push(socket);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    return { port: typeof address === 'object' && address ? address.port : 0, held };
  }

  async function open(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    return socket;
  }

  /** Whether the server cut the connection within a short while (an open one stays open). */
  function cut(socket: Socket): Promise<boolean> {
    if (socket.destroyed) return Promise.resolve(true);
    return Promise.race([
      once(socket, 'close').then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
    ]);
  }

  it('allows 64 per address by default', () => {
    assert.equal(MAX_CONNECTIONS_PER_ADDRESS, 64);
  });

  it('cuts the connection over the limit, and takes a new one once an open one closed', async () => {
    const { port, held } = await limited(2);
    const first = await open(port);
    const second = await open(port);
    assert.equal(await cut(await open(port)), true, 'the third is cut');
    assert.equal(held.length, 2);
    first.destroy();
    await within(once(held[0]!, 'close'));
    const fourth = await open(port);
    assert.equal(await cut(fourth), false, 'a place came free');
    assert.equal(held.length, 3);
    assert.equal(await cut(await open(port)), true, 'the two places are taken again');
    second.destroy();
    fourth.destroy();
    await within(Promise.all([once(held[1]!, 'close'), once(held[2]!, 'close')]));
    const again = [await open(port), await open(port)];
    for (const socket of again) assert.equal(await cut(socket), false, 'both places are free again');
  });

  it('counts each address on its own', async () => {
    const { port, held } = await limited(1);
    const mine = await open(port, '127.0.0.1');
    const neighbour = await open(port, '127.0.0.2');
    assert.equal(await cut(mine), false);
    assert.equal(await cut(neighbour), false, 'another address has its own place');
    assert.equal(held.length, 2);
  });
});

/** The promise, or a failure after 5 s: a test never waits forever. */
async function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('not within 5 s')), 5000)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
