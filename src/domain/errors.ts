/** A request the caller can fix: the message is shown to them verbatim (HTTP 400). */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

/** The addressed notification or condition does not exist (HTTP 404). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(message = 'notification not found') {
    super(message);
  }
}

/** The request is sound but clashes with the current state, which the message names (HTTP 409). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}

/** An answer to a revision the notification has left behind (HTTP 409): it approves nothing. */
export class StaleAnswerError extends ConflictError {
  override name = 'StaleAnswerError';
}

/** The broker cannot do this on this machine right now, for the reason given (HTTP 503). */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
}
