import type { OutboundNotification } from './provider.js';

/**
 * What a send-only channel says about an active notification's choices: they are answered where
 * Notify takes answers (the desk, the relay, a channel that answers), not on that channel.
 */
export function choicesLine(notification: OutboundNotification): string | undefined {
  const labels = notification.actions?.map((action) => action.label) ?? [];
  return labels.length === 0 || notification.status !== 'active'
    ? undefined
    : `Waiting for an answer in Notify: ${labels.join(' / ')}`;
}
