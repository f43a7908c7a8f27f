import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { ForeignListenerError } from './errors.js';

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
  /** Not Linux: the system offers no cheap way to learn the owner, so nothing can be checked. */
  | { known: false; reason: 'unsupported' }
  /** Linux, but /proc/net lists no socket for the broker's end of this connection (or cannot be read). */
  | { known: false; reason: 'not-listed' };

/** The socket's addresses come from the kernel, so the dotted form is all there is to tell IPv4 apart. */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A kernel socket table: /proc/net/tcp, or tcp6 (where a listener on `::` lists its IPv4 peers). */
export type SocketTable = 'tcp' | 'tcp6';

/**
 * The row of `table` that holds `pair` (`<local> <remote>` as the table prints them), from the pair
 * to the end of the row; undefined when no row holds it or the table cannot be read.
 */
export type RowFinder = (table: SocketTable, pair: string) => string | undefined;

/**
 * Throws ForeignListenerError unless the program that accepted the connection runs as this user. On
 * Linux an owner that cannot be found counts as foreign: failing open there would hand the token to
 * exactly the listener the check exists for.
 */
export function assertOwnListener(ends: SocketEnds, origin: string): void {
  const owner = listenerOwner(ends);
  if (owner.known ? owner.uid === process.getuid?.() : owner.reason === 'unsupported') return;
  throw new ForeignListenerError(origin, owner.known ? owner.uid : undefined);
}

/**
 * Linux only: the uid that owns the broker's end of a loopback connection. The kernel lists every TCP
 * socket in /proc/net/tcp (and tcp6, for a listener bound to `::` that accepted an IPv4 client), each
 * with the uid of the process that created it; the accepted socket inherits its listener's uid.
 * The tables are read in-process: spawning `ss` or `lsof` would cost every call far more.
 */
export function listenerOwner(ends: SocketEnds, platform: NodeJS.Platform = process.platform): ListenerOwner {
  if (platform !== 'linux') return { known: false, reason: 'unsupported' };
  return ownerOfConnection(ends, (table, pair) => findRow(`/proc/net/${table}`, pair));
}

/**
 * The row of the connection is found through its address pair: the broker's local end is our remote
 * end and the other way round. Only IPv4 connections are looked up (every client dials 127.0.0.1).
 * tcp6 is searched only when tcp does not list the connection: the broker listens on 127.0.0.1.
 */
export function ownerOfConnection(ends: SocketEnds, find: RowFinder): ListenerOwner {
  const { localAddress, localPort, remoteAddress, remotePort } = ends;
  if (!localAddress || !remoteAddress || !localPort || !remotePort)
    return { known: false, reason: 'not-listed' };
  if (!IPV4.test(localAddress) || !IPV4.test(remoteAddress)) return { known: false, reason: 'not-listed' };
  const row =
    find('tcp', `${v4Hex(remoteAddress, remotePort)} ${v4Hex(localAddress, localPort)}`) ??
    find('tcp6', `${mappedHex(remoteAddress, remotePort)} ${mappedHex(localAddress, localPort)}`);
  // From the pair on, a row reads `local remote st tx:rx tr:when retrnsmt uid ...`.
  const uid = Number(row?.trim().split(/\s+/)[6]);
  return row !== undefined && Number.isInteger(uid)
    ? { known: true, uid }
    : { known: false, reason: 'not-listed' };
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads the table only as far as the row: each read makes the kernel walk its connection hash and
 * print rows, which on a busy host costs milliseconds per table, so stopping early keeps the hook fast.
 */
function findRow(file: string, pair: string): string | undefined {
  const needle = ` ${pair} `;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let text = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      text += chunk.toString('latin1', 0, read);
      const at = text.indexOf(needle);
      const end = at < 0 ? -1 : text.indexOf('\n', at);
      if (at >= 0 && (end >= 0 || read === 0)) return text.slice(at + 1, end < 0 ? undefined : end);
      if (read === 0) return undefined;
      // A row cut by the chunk's end is kept whole for the next round; complete rows are dropped.
      if (at < 0) text = text.slice(text.lastIndexOf('\n') + 1);
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
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
