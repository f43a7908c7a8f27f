import type { NotificationDraft } from '../../src/domain/notification.js';
import type { Db } from '../../src/store/database.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import { OutboxStore } from '../../src/store/outbox-store.js';

/** What every notification of enqueueSends says. */
export const SEND_DRAFT: NotificationDraft = {
  agent: 'a',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'm',
};

/**
 * Stores each notification and enqueues its send to one route (with the id of its provider), in one transaction, as
 * a create with that route enabled would.
 */
export function enqueueSends(
  db: Db,
  sends: readonly { id: string; providerId: string }[],
  now: number,
): void {
  const notifications = new NotificationStore(db);
  const outbox = new OutboxStore(db);
  db.transaction(() => {
    for (const { id, providerId } of sends) {
      notifications.upsert(id, SEND_DRAFT, now, {});
      const routeId = providerId;
      outbox.enqueue(
        id,
        [
          {
            routeId,
            providerId,
            operation: 'send',
            includeMessage: true,
          },
        ],
        now,
      );
    }
  })();
}
