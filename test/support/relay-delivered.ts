import type { Delivered } from '../../src/relay-server/domain/delivery.js';

/** A question as a desk delivers it to the relay, titled `title`: what the store tests keep and move. */
export function deliveredQuestion(title: string, status: Delivered['status'] = 'active'): Delivered {
  return {
    title,
    message: `${title}: the message`,
    type: 'question',
    priority: 'high',
    agent: 'claude',
    project: 'notify',
    status,
    actions: [{ id: 'yes', label: 'Yes' }],
    createdAt: '2027-01-15T08:00:00.000Z',
    updatedAt: '2027-01-15T08:00:00.000Z',
    senderRevision: 3,
    messageIncluded: true,
  };
}
