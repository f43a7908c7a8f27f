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
 * Fans committed changes out to in-process consumers (toasts, sounds, tray, event stream). Listeners
 * run synchronously on the request path, so they must only hand the change on (queue it) and return;
 * one that throws is reported and never fails the write that already committed.
 */
export class ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(change: NotificationChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
