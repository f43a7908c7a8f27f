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
