import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import {
  listenerOwner,
  ownerOfConnection,
  type RowFinder,
  type SocketTable,
} from '../../src/client/listener-owner.js';

/** A real loopback connection to a server of this process, on `host`; both ends closed by `done`. */
async function connection(host: string): Promise<{ client: Socket; done: () => void }> {
  const server: Server = createServer((socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  return { client, done: () => (client.destroy(), server.close()) };
}

/**
 * A row finder over the kernel's tables as they are now, less every row that `hide` matches; `asked`
 * lists the tables the lookup searched.
 */
function tablesNow(hide: (row: string) => boolean = () => false): RowFinder & { asked: SocketTable[] } {
  const texts = {
    tcp: readFileSync('/proc/net/tcp', 'latin1'),
    tcp6: readFileSync('/proc/net/tcp6', 'latin1'),
  };
  const asked: SocketTable[] = [];
  const find = (table: SocketTable, pair: string) => {
    asked.push(table);
    const row = texts[table].split('\n').find((line) => line.includes(` ${pair} `) && !hide(line));
    return row?.slice(row.indexOf(pair));
  };
  return Object.assign(find, { asked });
}

const hexPort = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')} `;

describe('the listener owner in the kernel socket tables', () => {
  for (const host of ['127.0.0.1', '::']) {
    it(`finds this user's uid for a listener on ${host} (tcp${host === '::' ? '6, IPv4-mapped' : ''})`, async () => {
      const { client, done } = await connection(host);
      try {
        assert.deepEqual(listenerOwner(client), { known: true, uid: process.getuid!() });
        const tables = tablesNow();
        assert.deepEqual(ownerOfConnection(client, tables), { known: true, uid: process.getuid!() });
        // Each search makes the kernel print its connection table: tcp6 only when tcp does not list it.
        assert.deepEqual(tables.asked, host === '::' ? ['tcp', 'tcp6'] : ['tcp']);
      } finally {
        done();
      }
    });

    it(`says not-listed when the tables hold no row for the connection (listener on ${host})`, async () => {
      const { client, done } = await connection(host);
      try {
        const withoutIt = tablesNow((row) => row.includes(hexPort(client.localPort!)));
        assert.deepEqual(ownerOfConnection(client, withoutIt), { known: false, reason: 'not-listed' });
      } finally {
        done();
      }
    });
  }

  it('says not-listed when the tables cannot be read, or the socket has no addresses', async () => {
    const { client, done } = await connection('127.0.0.1');
    try {
      assert.deepEqual(
        ownerOfConnection(client, () => undefined),
        { known: false, reason: 'not-listed' },
      );
      assert.deepEqual(ownerOfConnection({}, tablesNow()), { known: false, reason: 'not-listed' });
    } finally {
      done();
    }
  });

  it('is not checked off Linux', () => {
    assert.deepEqual(listenerOwner({}, 'darwin'), { known: false, reason: 'unsupported' });
  });
});
