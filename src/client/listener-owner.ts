import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { isIPv4 } from 'node:net';

/** The two ends of a connected TCP socket, as the client sees them. */
export interface SocketEnds {
  localAddress?: string | undefined;
  localPort?: number | undefined;
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
}

/** What /proc says about the process that accepted a connection. */
export type ListenerOwner =
  | { known: true; uid: number }
  /** Not Linux, or /proc/net unreadable: nothing can be checked. */
  | { known: false; reason: 'unsupported' }
  /** /proc/net is readable but lists no socket for the broker's end of this connection. */
  | { known: false; reason: 'not-listed' };

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;

/**
 * Linux only: the uid that owns the broker's end of a loopback connection. The kernel lists every TCP
 * socket in /proc/net/tcp (and tcp6, for a listener bound to `::` that accepted an IPv4 client), each
 * with the uid of the process that created it; the accepted socket inherits its listener's uid. The
 * row is found through the connection's address pair: its local end is our remote end and the other
 * way round. Reading two small files in-process keeps `notify` fast; no `ss` or `lsof` is spawned.
 */
export function listenerOwner(ends: SocketEnds, platform: NodeJS.Platform = process.platform): ListenerOwner {
  const { localAddress, localPort, remoteAddress, remotePort } = ends;
  if (platform !== 'linux' || !localAddress || !remoteAddress || !localPort || !remotePort) {
    return { known: false, reason: 'unsupported' };
  }
  if (!isIPv4(localAddress) || !isIPv4(remoteAddress)) return { known: false, reason: 'unsupported' };
  const wanted = [
    { local: v4Hex(remoteAddress, remotePort), remote: v4Hex(localAddress, localPort) },
    { local: mappedHex(remoteAddress, remotePort), remote: mappedHex(localAddress, localPort) },
  ];
  let readable = false;
  for (const [index, table] of TABLES.entries()) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    readable = true;
    const uid = findUid(text, wanted[index]!);
    if (uid !== undefined) return { known: true, uid };
  }
  return readable ? { known: false, reason: 'not-listed' } : { known: false, reason: 'unsupported' };
}

/** Columns: sl, local_address, rem_address, st, tx:rx queue, tr:when, retrnsmt, uid, ... */
function findUid(table: string, wanted: { local: string; remote: string }): number | undefined {
  for (const line of table.split('\n')) {
    const columns = line.trim().split(/\s+/);
    if (columns[1] === wanted.local && columns[2] === wanted.remote) {
      const uid = Number(columns[7]);
      return Number.isInteger(uid) ? uid : undefined;
    }
  }
  return undefined;
}

/** The kernel prints each 32-bit word of an address as a number in the machine's byte order. */
function word(bytes: number[]): string {
  const buffer = Buffer.from(bytes);
  const value = endianness() === 'LE' ? buffer.readUInt32LE(0) : buffer.readUInt32BE(0);
  return value.toString(16).toUpperCase().padStart(8, '0');
}

function port(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, '0');
}

function octets(address: string): number[] {
  return address.split('.').map(Number);
}

function v4Hex(address: string, portNumber: number): string {
  return `${word(octets(address))}:${port(portNumber)}`;
}

/** `::ffff:a.b.c.d`, as /proc/net/tcp6 lists an IPv4 peer of a dual-stack socket. */
function mappedHex(address: string, portNumber: number): string {
  return `${word([0, 0, 0, 0])}${word([0, 0, 0, 0])}${word([0, 0, 0xff, 0xff])}${word(octets(address))}:${port(portNumber)}`;
}
