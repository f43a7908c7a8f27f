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
  type SendStanding,
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
  revision: 1,
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
  delaySeconds: 0,
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
        sends: new Map(row.sent ? [['r1', 'sent']] : []),
      });
      assert.deepEqual(
        items.map(
          (item) =>
            `${item.operation} ${deliveryEvent(item.operation as 'send' | 'update' | 'clear', row.status ?? 'active')}`,
        ),
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
      sends: new Map(),
    });
    assert.equal(item!.includeMessage, false);
    const payload = outboundOf(record, item!.includeMessage);
    assert.equal(payload.title, 'T');
    assert.equal('message' in payload, false);
    assert.equal(outboundOf(record, true).message, record.message);
  });
});

describe('planDeliveries for a route that waits', () => {
  const waiting: Route = { ...route, delaySeconds: 300 };
  const plan = (
    change: NotificationChangeKind,
    status: NotificationRecord['status'],
    standing?: SendStanding,
    provider: ProviderFacts = syncing,
  ) =>
    planDeliveries({
      change,
      record: { ...record, status },
      routes: [waiting, { ...route, id: 'r2' }],
      providers: new Map([['p1', provider]]),
      sends: new Map(standing ? [['r1', standing]] : []),
    })
      .filter((item) => item.routeId === 'r1')
      .map((item) => `${item.operation}${item.delaySeconds ? ` after ${item.delaySeconds}s` : ''}`);

  it('sends after the delay, and only the delayed route carries it', () => {
    const items = planDeliveries({
      change: { kind: 'created' },
      record,
      routes: [waiting, { ...route, id: 'r2' }],
      providers: new Map([['p1', syncing]]),
      sends: new Map(),
    });
    assert.deepEqual(
      items.map((item) => [item.routeId, item.operation, item.delaySeconds]),
      [
        ['r1', 'send', 300],
        ['r2', 'send', undefined],
      ],
    );
  });

  it('refreshes the waiting send on an update instead of planning an update, whatever the provider can edit', () => {
    assert.deepEqual(plan({ kind: 'updated' }, 'active', 'waiting'), ['refresh']);
    assert.deepEqual(plan({ kind: 'updated' }, 'active', 'waiting', plain), ['refresh']);
  });

  for (const status of ['resolved', 'dismissed'] as const) {
    it(`cancels the waiting send when the notification is ${status}, with nothing to clear`, () => {
      assert.deepEqual(plan({ kind: 'status', previous: 'active' }, status, 'waiting'), ['cancel']);
      assert.deepEqual(plan({ kind: 'status', previous: 'active' }, status, 'waiting', plain), ['cancel']);
    });
  }

  it('syncs a send that went out like any other route: clear on resolve, update on an edit', () => {
    assert.deepEqual(plan({ kind: 'status', previous: 'active' }, 'resolved', 'sent'), ['clear']);
    assert.deepEqual(plan({ kind: 'updated' }, 'active', 'sent'), ['update']);
  });

  it('cancels a waiting send whose route was disabled or deleted during the delay, or whose provider was disabled', () => {
    const items = planDeliveries({
      change: { kind: 'status', previous: 'active' },
      record: { ...record, status: 'resolved' },
      routes: [{ ...waiting, enabled: false }],
      providers: new Map([['p1', { ...syncing, enabled: false }]]),
      sends: new Map([
        ['r1', 'waiting'],
        ['gone', 'waiting'],
        ['sent-gone', 'sent'],
      ]),
    });
    assert.deepEqual(
      items.map((item) => `${item.operation} ${item.routeId}`),
      ['cancel r1', 'cancel gone'],
    );
  });

  it('arms a cancelled send again, with a new wait, when the notification is reopened or updated while active', () => {
    assert.deepEqual(plan({ kind: 'status', previous: 'resolved' }, 'active', 'cancelled'), [
      'send after 300s',
    ]);
    assert.deepEqual(plan({ kind: 'updated' }, 'active', 'cancelled'), ['send after 300s']);
    assert.deepEqual(plan({ kind: 'status', previous: 'active' }, 'dismissed', 'cancelled'), []);
  });
});
