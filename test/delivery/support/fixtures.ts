import { randomBytes } from 'node:crypto';
import type { DeliveryOperation, OutboundNotification } from '../../../src/delivery/provider.js';

/** The notification every conformance case sends: characters that need escaping, a findable message. */
export const MESSAGE_MARKER = 'MSG-7f3a';

export function notification(overrides: Partial<OutboundNotification> = {}): OutboundNotification {
  return {
    id: '01JD4Z6V9Q8W7E5R3T1Y2U4I6O',
    key: 'build:api',
    title: 'Build <b>failed</b> & stopped',
    message: `${MESSAGE_MARKER}: the tests of "api" failed <script>alert(1)</script>`,
    type: 'warning',
    priority: 'high',
    status: 'active',
    agent: 'ci-agent',
    project: 'notify',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

export function operation(overrides: Partial<DeliveryOperation> = {}): DeliveryOperation {
  return {
    operation: 'send',
    event: 'notification.created',
    notification: notification(),
    idempotencyKey: `item-${randomBytes(6).toString('hex')}`,
    ...overrides,
  };
}

export function withoutMessage(): OutboundNotification {
  const redacted: OutboundNotification = notification();
  delete redacted.message;
  return redacted;
}

export function secretValue(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
