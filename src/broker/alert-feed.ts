import type { NotificationRecord } from '../domain/notification.js';

/**
 * What the attention policy tells the presenters apart from the notification's changes (issue 20):
 * it was snoozed (its toast closes, it keeps quiet), or it alerts again (toast and sound) because its
 * snooze ended or a reminder is due. Not a change of the notification: no stream event, no delivery.
 */
export type AlertEvent =
  | { kind: 'snoozed'; record: NotificationRecord }
  | { kind: 'alert'; reason: 'snooze' | 'reminder'; record: NotificationRecord };

export type AlertListener = (event: AlertEvent) => void;

/** Fans alert events out to the toasts, the sounds and the reminder job; a listener that throws is reported. */
export class AlertFeed {
  readonly #listeners = new Set<AlertListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  /** Returns the function that unsubscribes. */
  subscribe(listener: AlertListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: AlertEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
