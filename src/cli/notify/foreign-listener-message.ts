import type { ForeignListenerError } from '../../client/errors.js';

/** Issue 7: another user's program on the port would have received the token; nothing was sent. */
export function foreignListenerMessage(error: ForeignListenerError): string {
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
