import { ConflictError } from '../domain/errors.js';

/** Focus could not happen; the message says why, as the 409 shows it ("the tmux server is gone"). */
export class FocusRefusedError extends ConflictError {
  override name = 'FocusRefusedError';
}
