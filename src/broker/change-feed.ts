import type { NotificationRecord, Status } from '../domain/notification.js';

/**
 * What happened to a notification once its write committed. `created` also covers a new lifecycle of a
 * key; `updated` is an in-place refresh (same key, same id), with the notification as it was; `status` is a transition to a new status.
 * An ARC replay or a no-op transition changes nothing and emits nothing.
 */
export type NotificationChange =
  | { kind: 'created'; record: NotificationRecord }
  | { kind: 'updated'; record: NotificationRecord; previous: NotificationRecord }
  | { kind: 'status'; record: NotificationRecord; previous: Status };

export type ChangeListener = (change: NotificationChange) => void;

/**
 * Fans events out to in-process consumers. Listeners run synchronously on the request path, so they
 * must only hand the event on (queue it) and return; one that throws is reported and never fails the
 * write that already committed.
 */
export class Feed<Event> {
  readonly #listeners = new Set<(event: Event) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: Event) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: Event): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}

/** Committed changes of notifications, for the toasts, sounds, tray, event stream and outbox wake-up. */
export class ChangeFeed extends Feed<NotificationChange> {}
