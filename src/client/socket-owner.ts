import { statSync } from 'node:fs';
import { BrokerUnreachableError, ForeignSocketError } from './errors.js';

/**
 * The listener check for a Unix socket (issue 33): the socket file must belong to this user and be
 * writable by no one else; only then does a byte (the token first) go to it. Another user's socket, or
 * one others may connect to and replace, is refused with ForeignSocketError; a missing one is
 * unreachable, like a port nobody listens on.
 */
export function assertOwnSocket(path: string): void {
  let info;
  try {
    info = statSync(path);
  } catch (error) {
    throw new BrokerUnreachableError(path, (error as Error).message);
  }
  if (!info.isSocket()) throw new ForeignSocketError(path, 'it is not a socket');
  if (info.uid !== process.getuid?.())
    throw new ForeignSocketError(path, `it belongs to another user (uid ${info.uid})`, info.uid);
  if ((info.mode & 0o022) !== 0)
    throw new ForeignSocketError(
      path,
      `other users may write to it (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')})`,
    );
}
