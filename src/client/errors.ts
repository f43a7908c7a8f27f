/** The broker answered outside 2xx; `detail` is its `error` field, else the raw body, else a placeholder. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly detail: string,
  ) {
    super(`${status} ${statusText}: ${detail}`);
  }
}

/** No answer arrived within the client's time budget. */
export class BrokerTimeoutError extends Error {
  override name = 'BrokerTimeoutError';
}

/** The connection failed before an answer: nothing listening, reset, refused. */
export class BrokerUnreachableError extends Error {
  override name = 'BrokerUnreachableError';
  constructor(
    readonly baseUrl: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** A 2xx answer whose body is not the JSON the API promises. */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError';
}

/**
 * The program listening on the broker's port belongs to another user: nothing was sent to it, so
 * neither the token nor the notification reached it.
 */
export class ForeignListenerError extends Error {
  override name = 'ForeignListenerError';
  constructor(
    readonly baseUrl: string,
    /** The listener's uid, or undefined when the kernel listed no owner for the connection. */
    readonly ownerUid: number | undefined,
  ) {
    super(
      ownerUid === undefined
        ? `could not find out who owns the program listening at ${baseUrl}`
        : `the program listening at ${baseUrl} belongs to uid ${ownerUid}, not to you`,
    );
  }
}

/**
 * The broker's Unix socket (NOTIFY_SOCKET, config `socket`) is not safely this user's: nothing was sent
 * to it. `baseUrl` is the socket's path.
 */
export class ForeignSocketError extends ForeignListenerError {
  override name = 'ForeignSocketError';
  constructor(
    baseUrl: string,
    /** Why it is refused: "it belongs to another user (uid 65534)". */
    readonly reason: string,
    ownerUid?: number,
  ) {
    super(baseUrl, ownerUid);
    this.message = `the socket ${baseUrl} is refused: ${reason}`;
  }
}

/**
 * The socket SSH forwards from this machine to the desk is not there (no ssh session with its forward
 * is open): `forwardName` is the Host the desk connects with (`ssh api-box`).
 */
export class ForwardClosedError extends BrokerUnreachableError {
  override name = 'ForwardClosedError';
  constructor(
    baseUrl: string,
    reason: string,
    readonly forwardName: string,
  ) {
    super(baseUrl, reason);
  }
}
