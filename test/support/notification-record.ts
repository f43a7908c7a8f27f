import type { NotificationRecord } from '../../src/domain/notification.js';

/** An active info notification for unit tests, with the fields a test is about set by the test. */
export const notificationRecord = (
  fields: Partial<NotificationRecord> & Pick<NotificationRecord, 'id'>,
): NotificationRecord => ({
  agent: 'a',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'm',
  status: 'active',
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
});
