import type { NotificationRecord } from '../domain/notification.js';
import { Feed } from './change-feed.js';

/**
 * What the attention policy tells the presenters apart from the notification's changes (issue 20):
 * it was snoozed (its toast closes, it keeps quiet), or it alerts again (toast and sound) because its
 * snooze ended or a reminder is due. Not a change of the notification: no stream event, no delivery.
 */
export type AlertEvent =
  | { kind: 'snoozed'; record: NotificationRecord }
  | { kind: 'alert'; reason: 'snooze' | 'reminder'; record: NotificationRecord };

/** Alert events for the toasts, the sounds and the reminder job. */
export class AlertFeed extends Feed<AlertEvent> {}
