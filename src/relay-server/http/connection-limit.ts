/** At most so many open connections from one client address: one address cannot take every file descriptor. */
import { isIPv6, type Server } from 'node:net';

/** Browsers open up to 6 connections per site plus event streams; a household behind one NAT stays far below. */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

/** The address a connection counts against: IPv4 as is, IPv6 by its /64 (one subscriber's whole block). */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.prependListener('connection', (socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
