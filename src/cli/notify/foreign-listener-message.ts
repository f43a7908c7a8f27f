import { ForeignSocketError, type ForeignListenerError } from '../../client/errors.js';

/** Issue 7: another user's program on the port would have received the token; nothing was sent. */
export function foreignListenerMessage(error: ForeignListenerError): string {
  if (error instanceof ForeignSocketError)
    return (
      `The socket ${error.baseUrl} is refused: ${error.reason}, so nothing was sent to it: it could be ` +
      `someone else's program waiting for your token. Notify's own socket belongs to you and only you ` +
      `may write to it; check NOTIFY_SOCKET or "socket" in config.json.`
    );
  const who =
    error.ownerUid === undefined
      ? `Notify could not find out which user owns the program listening at ${error.baseUrl}`
      : `The program listening at ${error.baseUrl} belongs to another user (uid ${error.ownerUid}), not to you (uid ${process.getuid?.()})`;
  return (
    `${who}, so nothing was sent to it: it could be someone else's program waiting for your token. ` +
    `Stop that program, or run notifyd on another port ("port" in config.json) and use that port ` +
    `(--port or NOTIFY_PORT).`
  );
}
