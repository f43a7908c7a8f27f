import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NotificationRecord } from '../notification.js';
import {
  deliveryEvent,
  idempotencyKey,
  outboundOf,
  planDeliveries,
  type NotificationChangeKind,
  type ProviderFacts,
} from './delivery-plan.js';
import type { Route } from './route.js';

const record: NotificationRecord = {
  id: 'n1',
  key: 'k',
  agent: 'claude',
  type: 'info',
  priority: 'high',
  title: 'T',
  message: 'M',
  status: 'active',
  createdAt: 1000,
  updatedAt: 2000,
};
const route: Route = {
  id: 'r1',
  name: 'r',
  providerId: 'p1',
  enabled: true,
  minimumPriority: 'normal',
  includeMessage: true,
};
const syncing: ProviderFacts = { enabled: true, lifecycle: { update: true, clear: true } };
const updateOnly: ProviderFacts = { enabled: true, lifecycle: { update: true, clear: false } };
const plain: ProviderFacts = { enabled: true, lifecycle: { update: false, clear: false } };

/** conventions.md, last point: when a change is forwarded, one row per case. */
const table: {
  when: string;
  change: NotificationChangeKind;
  status?: NotificationRecord['status'];
  provider?: ProviderFacts;
  sent: boolean;
  expect: string[];
}[] = [
  {
    when: 'a notification is created',
    change: { kind: 'created' },
    sent: false,
    expect: ['send notification.created'],
  },
  {
    when: 'an update makes a route match that had not been sent',
    change: { kind: 'updated' },
    sent: false,
    expect: ['send notification.created'],
  },
  {
    when: 'an update reaches a route already sent, provider edits',
    change: { kind: 'updated' },
    sent: true,
    expect: ['update notification.updated'],
  },
  {
    when: 'an update reaches a route already sent, plain provider',
    change: { kind: 'updated' },
    provider: plain,
    sent: true,
    expect: [],
  },
  {
    when: 'a sent notification is resolved, provider clears',
    change: { kind: 'status', previous: 'active' },
    status: 'resolved',
    sent: true,
    expect: ['clear notification.resolved'],
  },
  {
    when: 'a sent notification is dismissed, provider only edits',
    change: { kind: 'status', previous: 'active' },
    status: 'dismissed',
    provider: updateOnly,
    sent: true,
    expect: ['update notification.dismissed'],
  },
  {
    when: 'a sent notification is resolved, plain provider',
    change: { kind: 'status', previous: 'active' },
    status: 'resolved',
    provider: plain,
    sent: true,
    expect: [],
  },
  {
    when: 'a sent notification is reopened',
    change: { kind: 'status', previous: 'resolved' },
    sent: true,
    expect: ['update notification.updated'],
  },
  {
    when: 'a never-sent notification is resolved',
    change: { kind: 'status', previous: 'active' },
    status: 'resolved',
    sent: false,
    expect: [],
  },
  {
    when: 'the provider is disabled',
    change: { kind: 'created' },
    provider: { ...syncing, enabled: false },
    sent: false,
    expect: [],
  },
];

describe('planDeliveries', () => {
  for (const row of table) {
    it(`plans ${row.expect.join(', ') || 'nothing'} when ${row.when}`, () => {
      const items = planDeliveries({
        change: row.change,
        record: { ...record, status: row.status ?? 'active' },
        routes: [route],
        providers: new Map([['p1', row.provider ?? syncing]]),
        sentRoutes: new Set(row.sent ? ['r1'] : []),
      });
      assert.deepEqual(
        items.map((item) => `${item.operation} ${deliveryEvent(item.operation, row.status ?? 'active')}`),
        row.expect,
      );
    });
  }

  it('gives the send of a lifecycle one idempotency key however often it is planned, and each edit its own', () => {
    const key = (operation: 'send' | 'update', updatedAt: number) =>
      idempotencyKey({ ...record, updatedAt }, 'r1', operation);
    assert.equal(key('send', 2000), key('send', 3000));
    assert.notEqual(key('update', 3000), key('update', 4000));
    assert.notEqual(key('update', 3000), key('send', 3000));
  });

  it('leaves the message out when the route does not include it', () => {
    const [item] = planDeliveries({
      change: { kind: 'created' },
      record,
      routes: [{ ...route, includeMessage: false }],
      providers: new Map([['p1', syncing]]),
      sentRoutes: new Set(),
    });
    assert.equal(item!.includeMessage, false);
    const payload = outboundOf(record, item!.includeMessage);
    assert.equal(payload.title, 'T');
    assert.equal('message' in payload, false);
    assert.equal(outboundOf(record, true).message, record.message);
  });
});
