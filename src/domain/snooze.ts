import { InvalidRequestError } from './errors.js';
import { rejectUnknownFields, requireObjectBody } from './fields.js';

/** A day at most: a notification snoozed longer is one to dismiss. */
export const MAX_SNOOZE_MINUTES = 1440;

/** What the toast's "Snooze 15 min" button does. */
export const TOAST_SNOOZE_MINUTES = 15;

/** POST /v1/notifications/{id}/snooze: `{"minutes": N}`, a whole number from 1 to 1440. */
export function parseSnoozeRequest(body: unknown): { minutes: number } {
  const input = requireObjectBody(body);
  rejectUnknownFields(input, ['minutes']);
  const { minutes } = input;
  if (!Number.isInteger(minutes) || (minutes as number) < 1 || (minutes as number) > MAX_SNOOZE_MINUTES)
    throw new InvalidRequestError(`minutes must be a whole number from 1 to ${MAX_SNOOZE_MINUTES}`);
  return { minutes: minutes as number };
}
