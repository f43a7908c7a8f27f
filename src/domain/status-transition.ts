import { InvalidRequestError } from './errors.js';
import { isJsonObject, rejectUnknownFields } from './fields.js';
import { isStatus, type Status } from './notification.js';

/** Reads the body of PATCH /v1/notifications/{id}; like a create, it refuses fields it does not know. */
export function parseStatusChange(body: unknown): Status {
  if (isJsonObject(body)) rejectUnknownFields(body, ['status']);
  if (!isJsonObject(body) || body['status'] === undefined || body['status'] === null) {
    throw new InvalidRequestError('status is required');
  }
  const status = body['status'];
  if (typeof status !== 'string' || !isStatus(status.trim().toLowerCase())) {
    throw new InvalidRequestError('status must be one of active, dismissed, resolved');
  }
  return status.trim().toLowerCase() as Status;
}

/**
 * Spec "States and transitions": active may go anywhere; dismissed and resolved may only be reopened.
 * Returns false when the change is a no-op (active → active is 200, unchanged).
 */
export function checkTransition(from: Status, to: Status): boolean {
  if (from === to && from === 'active') return false;
  if (from !== 'active' && to !== 'active') {
    throw new InvalidRequestError(
      `cannot change status from ${from} to ${to}; a ${from} notification can only be reopened with status active`,
    );
  }
  return true;
}
