import type { DeliveryOperation } from '../../provider.js';

/**
 * The webhook's JSON body, version 2 (docs/providers.md#event-shape): version 1 plus the answers
 * extension, where a notification resolved by the person's answer arrives as `notification.answered`
 * (no longer `notification.resolved`) with `data.answer`. It follows the Standard Webhooks
 * payload recommendation: `type`, `timestamp`, `data`. The body depends only on the operation, so every
 * retry of one item sends the same bytes.
 */

export const WEBHOOK_EVENT_VERSION = 2;

export interface WebhookEventBody {
  version: typeof WEBHOOK_EVENT_VERSION;
  type: DeliveryOperation['event'];
  /** When the notification last changed (the event's time, not the attempt's). */
  timestamp: string;
  data: {
    id: string;
    key?: string;
    title: string;
    message?: string;
    type: string;
    priority: string;
    status: string;
    agent: string;
    project?: string;
    createdAt: string;
    updatedAt: string;
    actions?: { id: string; label: string }[];
    answer?: { action: string; surface: string; answeredAt: string };
  };
}

export function webhookEventBody(operation: DeliveryOperation): WebhookEventBody {
  const n = operation.notification;
  return {
    version: WEBHOOK_EVENT_VERSION,
    type: operation.event,
    timestamp: n.updatedAt,
    data: {
      id: n.id,
      ...(n.key === undefined ? {} : { key: n.key }),
      title: n.title,
      ...(n.message === undefined ? {} : { message: n.message }),
      type: n.type,
      priority: n.priority,
      status: n.status,
      agent: n.agent,
      ...(n.project === undefined ? {} : { project: n.project }),
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
      ...(n.actions === undefined ? {} : { actions: n.actions }),
      ...(n.answer === undefined ? {} : { answer: n.answer }),
    },
  };
}
