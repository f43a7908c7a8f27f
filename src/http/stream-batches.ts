import type { StreamEvent } from '../broker/change-stream.js';

/** More changes than this in one batch are sent as one `reset`: listing again is cheaper than following. */
export const BATCH_OVERFLOW = 100;

/** One event in the stream's wire format. */
export function frameOf(event: StreamEvent): string {
  return `id: ${event.id}\nevent: ${event.name}\ndata: ${event.data}\n\n`;
}

/** The `reset` that stands for a batch too long to follow; its id resumes after the batch's last event. */
export function overflowResetOf(lastId: string, windowMs: number): string {
  const reason = `more than ${BATCH_OVERFLOW} changes in ${windowMs} ms; list the notifications again`;
  return `id: ${lastId}\nevent: reset\ndata: ${JSON.stringify({ reason })}\n\n`;
}

/**
 * `?batch=<ms>` of GET /v1/stream (docs/api.md): an event after a quiet spell is written at once; the
 * events that follow within `windowMs` are held and written together when it ends, and so on while they
 * keep coming. A batch of more than BATCH_OVERFLOW changes is written as one `reset` instead. A page
 * that follows a flood of changes then draws about once a window rather than thousands of times (issue 21's
 * bench: the browser had taken a core of two), and the broker writes once per window, not per change.
 */
export class StreamBatches {
  #held: StreamEvent[] = [];
  #overflowedAt: string | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly write: (text: string) => void,
  ) {}

  add(event: StreamEvent): void {
    if (this.#timer === undefined) {
      this.write(frameOf(event));
      this.#timer = setTimeout(() => this.#flush(), this.windowMs);
      return;
    }
    if (this.#overflowedAt !== undefined || this.#held.length === BATCH_OVERFLOW) {
      this.#overflowedAt = event.id;
      this.#held = [];
      return;
    }
    this.#held.push(event);
  }

  /** The stream closed: nothing more is written. */
  close(): void {
    clearTimeout(this.#timer);
    this.#held = [];
  }

  #flush(): void {
    this.#timer = undefined;
    if (this.#overflowedAt !== undefined) this.write(overflowResetOf(this.#overflowedAt, this.windowMs));
    else if (this.#held.length > 0) this.write(this.#held.map(frameOf).join(''));
    else return;
    this.#held = [];
    this.#overflowedAt = undefined;
    // Something was written: the next change waits for the window too, so a flood stays batched.
    this.#timer = setTimeout(() => this.#flush(), this.windowMs);
  }
}
