import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { PlannedItem } from '../domain/delivery/delivery-plan.js';
import type { NotificationDraft, NotificationRecord } from '../domain/notification.js';
import { openDatabase, type Db } from './database.js';
import { INTAKE_RANGE } from './intake-range.js';
import { MIGRATIONS } from './migrations.js';
import { NotificationStore } from './notification-store.js';
import { OUTBOX_STATES, OutboxStore } from './outbox-store.js';
import { ProviderStore } from './provider-store.js';

const DRAFT: NotificationDraft = {
  key: 'deploy',
  agent: 'claude',
  type: 'question',
  priority: 'high',
  title: 'Deploy?',
  message: 'the message',
  metadata: { branch: 'main' },
};

const item = (
  routeId: string,
  includeMessage = true,
  operation: PlannedItem['operation'] = 'send',
): PlannedItem => ({
  routeId,
  providerId: `p-${routeId}`,
  operation,
  includeMessage,
});

describe('the outbox intake: one row per change, expanded into items before anything reads them', () => {
  let dir: string;
  let file: string;
  let db: Db;
  /** Stores a notification (a new one, or the in-place refresh of its key's active one). */
  let notify: (id: string, draft?: Partial<NotificationDraft>, now?: number) => NotificationRecord;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-outbox-store-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
    notify = (id, draft = {}, now = 5) =>
      new NotificationStore(db).upsert(id, { ...DRAFT, key: id, ...draft }, now, {})!.record;
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every item of a change, each with its own payload, to every reader', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1'), item('r2'), item('r3', false)], 5);
    assert.deepEqual(outbox.counts(), {
      waiting: 0,
      pending: 3,
      in_flight: 0,
      delivered: 0,
      dead: 0,
      cancelled: 0,
    });
    // Newest first, as the API lists them.
    const items = outbox.list('pending', 10).reverse();
    assert.deepEqual(
      items.map((item) => [item.routeId, item.providerId, item.idempotencyKey, item.payload.message]),
      [
        ['r1', 'p-r1', 'n1.r1', 'the message'],
        ['r2', 'p-r2', 'n1.r2', 'the message'],
        ['r3', 'p-r3', 'n1.r3', undefined],
      ],
    );
    assert.deepEqual(items[0]!.payload, {
      id: 'n1',
      key: 'n1',
      title: 'Deploy?',
      message: 'the message',
      type: 'question',
      priority: 'high',
      status: 'active',
      revision: 1,
      agent: 'claude',
      createdAt: '1970-01-01T00:00:00.005+00:00',
      updatedAt: '1970-01-01T00:00:00.005+00:00',
    });
    assert.equal(items[0]!.createdAt, 5);
  });

  it('holds a send of a route that waits until its delay ends, refreshes it on updates and cancels it unsent', () => {
    const outbox = new OutboxStore(db);
    const waits = (routeId: string): PlannedItem => ({ ...item(routeId), delaySeconds: 300 });
    for (const id of ['p-r1', 'p-r2']) {
      const provider = { id, kind: 'webhook', name: id, enabled: true, settings: {} };
      new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    }
    notify('n1', { title: 'v1' }, 5);
    outbox.enqueue('n1', [waits('r1'), item('r2')], 5);
    assert.deepEqual(Object.fromEntries(outbox.sendsOf('n1')), { r1: 'waiting', r2: 'sent' });
    const [send] = outbox.list('waiting', 10);
    assert.deepEqual(
      [send?.routeId, send?.state, send?.waitUntil, send?.nextAttemptAt],
      ['r1', 'pending', 300_005, 300_005],
    );
    assert.deepEqual(
      outbox.claim(6, 10, () => 10).map((each) => each.routeId),
      ['r2'],
      'only the route without a delay starts now',
    );
    assert.equal(outbox.nextDueAt(6), 300_005, 'the dispatcher wakes when the delay ends');
    assert.deepEqual(
      Object.fromEntries(outbox.sendsOf('n1')),
      { r1: 'waiting', r2: 'sent' },
      'moved out of the intake',
    );
    const routesOf = (state: Parameters<OutboxStore['list']>[0], notificationId = 'n1') =>
      outbox.list(state, 10, notificationId).map((each) => each.routeId);
    assert.deepEqual(routesOf(undefined), ['r2', 'r1']);
    assert.deepEqual(routesOf('waiting'), ['r1']);
    assert.deepEqual(routesOf('pending'), [], 'a waiting send is not shown as pending');
    assert.deepEqual(routesOf('in_flight'), ['r2']);
    assert.deepEqual(routesOf(undefined, 'n2'), []);
    assert.deepEqual(
      outbox.counts(),
      { waiting: 1, pending: 0, in_flight: 1, delivered: 0, dead: 0, cancelled: 0 },
      'a waiting send counts as waiting only',
    );

    notify('n1', { title: 'v2' }, 7);
    outbox.enqueue('n1', [{ ...waits('r1'), operation: 'refresh' }], 7);
    assert.equal(
      outbox.claim(400_000, 10, () => 10, 0).length,
      0,
      'a waiting send waits for its notification’s intake rows, which may cancel or refresh it',
    );
    assert.equal(outbox.get(send!.seq)!.payload.title, 'v2', 'the send goes with the newest content');
    assert.equal(outbox.get(send!.seq)!.nextAttemptAt, 300_005, 'an update does not move the delay');

    outbox.enqueue('n1', [{ ...waits('r1'), operation: 'cancel' }], 8);
    assert.deepEqual(Object.fromEntries(outbox.sendsOf('n1')), { r1: 'cancelled', r2: 'sent' });
    outbox.expandIntake();
    assert.deepEqual([outbox.get(send!.seq)!.state, outbox.get(send!.seq)!.attempts], ['cancelled', 0]);
    assert.equal(outbox.nextDueAt(6), undefined, 'a cancelled send wakes nobody');
    assert.equal(outbox.claim(400_000, 10, () => 10).length, 0);
    assert.deepEqual(outbox.counts(), {
      waiting: 0,
      pending: 0,
      in_flight: 1,
      delivered: 0,
      dead: 0,
      cancelled: 1,
    });

    outbox.enqueue('n1', [waits('r1')], 500_000);
    assert.deepEqual(
      [outbox.get(send!.seq)!.state, outbox.get(send!.seq)!.waitUntil],
      ['pending', 800_000],
      'a reopen arms the cancelled send again, with a new wait, under the same key',
    );
    const [started] = outbox.claim(800_000, 10, () => 10);
    assert.deepEqual(
      [started?.seq, started?.waitUntil, outbox.get(send!.seq)!.waitUntil],
      [send!.seq, undefined, undefined],
      'once its first attempt starts, it no longer waits and can no longer be cancelled',
    );
    assert.deepEqual(Object.fromEntries(outbox.sendsOf('n1')), { r1: 'sent', r2: 'sent' });
  });

  it("cancels a waiting send of a handled notification though its neighbours' changes sit beside its own in the intake", () => {
    const outbox = new OutboxStore(db);
    const waits = (operation: PlannedItem['operation'] = 'send'): PlannedItem => ({
      ...item('r1'),
      operation,
      delaySeconds: 300,
    });
    const provider = { id: 'p-r1', kind: 'webhook', name: 'p-r1', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    const ids = ['n1', 'n2', 'n3'];
    for (const id of ids) {
      notify(id, { title: `${id} v1` }, 5);
      outbox.enqueue(id, [waits()], 5);
    }
    assert.equal(outbox.claim(6, 10, () => 10).length, 0, 'every send waits for its delay');
    // Its neighbours' changes come first (the one after it, then n2's resolve, then the one before it);
    // all three wait in the intake, n2's key between theirs.
    notify('n3', { title: 'n3 v2' }, 7);
    outbox.enqueue('n3', [waits('refresh')], 7);
    outbox.enqueue('n2', [waits('cancel')], 8);
    notify('n1', { title: 'n1 v2' }, 9);
    outbox.enqueue('n1', [waits('refresh')], 9);
    assert.deepEqual(
      outbox.claim(400_000, 10, () => 10, 0),
      [],
      'a waiting send never starts while a change of its own notification waits in the intake',
    );
    assert.deepEqual(
      ids.map((id) => outbox.sendsOf(id).get('r1')),
      ['waiting', 'cancelled', 'waiting'],
    );
    const started = outbox.claim(400_000, 10, () => 10);
    assert.deepEqual(
      started.map((each) => [each.notificationId, each.payload.title]).sort(),
      [
        ['n1', 'n1 v2'],
        ['n3', 'n3 v2'],
      ],
      'the handled one is cancelled unsent; its neighbours go with their newest content',
    );
    assert.equal(outbox.list('cancelled', 10, 'n2').length, 1);
  });

  it('makes a send held by quiet hours and its route’s delay due at the later of both; only the delay makes it wait and cancellable', () => {
    const outbox = new OutboxStore(db);
    for (const id of ['p-quiet-then-delay', 'p-delay-then-quiet', 'p-quiet-only']) {
      const provider = { id, kind: 'webhook', name: id, enabled: true, settings: {} };
      new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    }
    notify('n1', {}, 5);
    outbox.enqueue(
      'n1',
      [
        { ...item('quiet-then-delay'), notBefore: 100_000, delaySeconds: 300 },
        { ...item('delay-then-quiet'), notBefore: 900_000, delaySeconds: 300 },
        { ...item('quiet-only'), notBefore: 900_000 },
      ],
      5,
    );
    assert.deepEqual(Object.fromEntries(outbox.sendsOf('n1')), {
      'quiet-then-delay': 'waiting',
      'delay-then-quiet': 'waiting',
      'quiet-only': 'sent',
    });
    const due = () =>
      Object.fromEntries(
        outbox
          .list(undefined, 10)
          .map((each) => [each.routeId, [each.state, each.waitUntil, each.nextAttemptAt]]),
      );
    assert.deepEqual(due(), {
      'quiet-then-delay': ['pending', 300_005, 300_005],
      'delay-then-quiet': ['pending', 900_000, 900_000],
      'quiet-only': ['pending', undefined, 900_000],
    });
    assert.equal(outbox.counts().waiting, 2);

    outbox.enqueue(
      'n1',
      ['quiet-then-delay', 'delay-then-quiet', 'quiet-only'].map((routeId) => ({
        ...item(routeId),
        operation: 'cancel' as const,
      })),
      6,
    );
    assert.deepEqual(due(), {
      'quiet-then-delay': ['cancelled', 300_005, 300_005],
      'delay-then-quiet': ['cancelled', 900_000, 900_000],
      'quiet-only': ['pending', undefined, 900_000],
    });
    assert.deepEqual(
      outbox.claim(900_000, 10, () => 10).map((each) => each.routeId),
      ['quiet-only'],
      'a send held only by quiet hours still goes when they end',
    );
  });

  it('keeps a change enqueued but not yet expanded through a restart', () => {
    notify('n1');
    new OutboxStore(db).enqueue('n1', [item('r1')], 5);
    db.close();
    db = openDatabase(file);
    assert.equal(new OutboxStore(db).counts().pending, 1);
  });

  it('knows the routes a notification was sent to while its send still waits in the intake, without moving the intake', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1'), item('r2')], 5);
    notify('n2');
    outbox.enqueue('n2', [item('r3')], 5);
    assert.deepEqual([...outbox.sendsOf('n1').keys()].sort(), ['r1', 'r2']);
    assert.equal(outbox.hasIntake(), true, 'the intake waits for the dispatcher');
    outbox.expandIntake();
    assert.deepEqual([...outbox.sendsOf('n1').keys()].sort(), ['r1', 'r2']);
  });

  it('moves an intake row written before event and idempotency key were derived (an upgrade after a crash)', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    db.prepare('INSERT INTO outbox_intake (notification_id, items, created_at) VALUES (?, ?, ?)').run(
      'n1',
      JSON.stringify([
        ['r1', 'p-r1', 'send', 'notification.created', 'n1.r1', 0],
        ['r2', 'p-r2', 'send', 'notification.created', 'n1.r2', 1],
      ]),
      5,
    );
    const [withMessage, moved] = outbox.list('pending', 10);
    assert.deepEqual(
      [moved?.routeId, moved?.providerId, moved?.event, moved?.idempotencyKey, moved?.payload.message],
      ['r1', 'p-r1', 'notification.created', 'n1.r1', undefined],
    );
    assert.deepEqual(
      [withMessage?.routeId, withMessage?.payload.message],
      ['r2', 'the message'],
      'IncludeMessage is the last of the six places',
    );
  });

  it('enqueues an item once however often its change is written (idempotency key)', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    outbox.enqueue('n1', [item('r1'), item('r2')], 6);
    assert.deepEqual(
      outbox
        .list(undefined, 10)
        .map((item) => item.idempotencyKey)
        .sort(),
      ['n1.r1', 'n1.r2'],
    );
  });

  it('writes nothing when the change’s transaction is rolled back', () => {
    const outbox = new OutboxStore(db);
    assert.throws(() =>
      db.transaction(() => {
        notify('n1');
        outbox.enqueue('n1', [item('r1')], 5);
        throw new Error('the notification could not be stored');
      })(),
    );
    assert.equal(outbox.counts().pending, 0);
  });

  it('claims in change order across many changes, a chunk at a time', () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    db.transaction(() => {
      for (let n = 0; n < 1200; n++) {
        notify(`n${n}`);
        outbox.enqueue(`n${n}`, [item('r')], 5);
      }
    })();
    const claimed = outbox.claim(10, 3, () => 3);
    assert.deepEqual(
      claimed.map((item) => item.notificationId),
      ['n0', 'n1', 'n2'],
    );
    assert.equal(outbox.counts().pending, 1197);
  });

  it('still lists and counts while another program holds the write lock, and shows the rest after', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    outbox.counts();
    notify('n2');
    outbox.enqueue('n2', [item('r1')], 6);
    const other = openDatabase(file);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      assert.equal(outbox.counts().pending, 1, 'the moved item, while the next cannot be moved');
      assert.deepEqual(
        outbox.list('pending', 10).map((item) => item.notificationId),
        ['n1'],
      );
      other.prepare('ROLLBACK').run();
    } finally {
      other.close();
    }
    assert.equal(outbox.counts().pending, 2);
  });
  it('sends a notification as it was at the change, though it changed before the intake was moved', () => {
    const outbox = new OutboxStore(db);
    notify('n1', { title: 'Deploy v1?' }, 5);
    outbox.enqueue('n1', [item('r1')], 5);
    const updated = notify('n1', { title: 'Deploy v2?' }, 7);
    assert.equal(updated.id, 'n1', 'refreshed in place through its key');
    outbox.enqueue('n1', [item('r1', true, 'update')], 7);
    new NotificationStore(db).setStatus('n1', 'resolved', 9);
    outbox.enqueue('n1', [item('r1', true, 'clear')], 9);
    const payloads = outbox
      .list(undefined, 10)
      .reverse()
      .map((each) => [each.event, each.payload.title, each.payload.status, each.idempotencyKey]);
    assert.deepEqual(payloads, [
      ['notification.created', 'Deploy v1?', 'active', 'n1.r1'],
      ['notification.updated', 'Deploy v2?', 'active', 'n1.r1.update.7'],
      ['notification.resolved', 'Deploy v2?', 'resolved', 'n1.r1.clear.9'],
    ]);
  });

  it('keeps the attempt count of items a crash left in flight, so a broker crashing in a loop still dead-letters', () => {
    const provider = { id: 'p-r1', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    let outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    const [first] = outbox.claim(10, 10, () => 10);
    outbox.settleAll([{ seq: first!.seq, state: 'pending', now: 11, details: { nextAttemptAt: 11 } }]);
    const [second] = outbox.claim(12, 10, () => 10);
    assert.equal(second?.attempts, 2);
    db.close();
    db = openDatabase(file);
    outbox = new OutboxStore(db);
    assert.equal(outbox.recoverInFlight(20), 1);
    const recovered = outbox.get(first!.seq)!;
    assert.deepEqual([recovered.state, recovered.attempts, recovered.nextAttemptAt], ['pending', 2, 20]);
  });

  it('tries a dead send again, as the notification is now, when it is enqueued again; other items stay as they are', () => {
    const outbox = new OutboxStore(db);
    for (const id of ['p-r1', 'p-r2']) {
      const provider = { id, kind: 'webhook', name: id, enabled: true, settings: {} };
      new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    }
    notify('n1', { title: 'v1' }, 5);
    outbox.enqueue('n1', [item('r1'), item('r2')], 5);
    const claimed = outbox.claim(6, 10, () => 10);
    outbox.settleAll(
      claimed.map(({ seq, routeId }) =>
        routeId === 'r1'
          ? { seq, state: 'dead', now: 6, details: { reason: 'http_400', status: 400 } }
          : { seq, state: 'delivered', now: 6, details: { reference: 'ref-2' } },
      ),
    );
    assert.deepEqual([...outbox.sendsOf('n1').keys()], ['r2'], 'a dead send does not count as sent');
    notify('n1', { title: 'v2' }, 7);
    outbox.enqueue('n1', [item('r1'), item('r2')], 7);
    const items = outbox.list(undefined, 10).reverse();
    assert.deepEqual(
      items.map((each) => [
        each.routeId,
        each.state,
        each.attempts,
        each.payload.title,
        each.event,
        each.reference,
        each.lastReason,
        each.lastStatus,
        each.createdAt,
        each.nextAttemptAt,
      ]),
      [
        ['r1', 'pending', 0, 'v2', 'notification.created', undefined, undefined, undefined, 7, 7],
        ['r2', 'delivered', 1, 'v1', 'notification.created', 'ref-2', undefined, undefined, 5, 6],
      ],
    );
    assert.deepEqual([...outbox.sendsOf('n1').keys()].sort(), ['r1', 'r2']);

    notify('n1', { title: 'v3' }, 8);
    outbox.enqueue('n1', [item('r2', true, 'update')], 8);
    const [update] = outbox.claim(9, 10, () => 10).filter((each) => each.operation === 'update');
    outbox.settleAll([{ seq: update!.seq, state: 'dead', now: 9, details: { reason: 'http_400' } }]);
    outbox.enqueue('n1', [item('r2', true, 'update')], 8);
    assert.deepEqual(
      [outbox.get(update!.seq)!.state, outbox.get(update!.seq)!.attempts],
      ['dead', 1],
      'a dead update enqueued again by the same change stays dead',
    );
  });

  it('retries only a dead item, gives the reference of a send, purges delivered items but a live send, and dead-letters items of a deleted provider', () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r1', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    assert.equal(outbox.nextDueAt(0), undefined, 'the intake is due at once, not through the table');
    outbox.expandIntake();
    assert.equal(outbox.nextDueAt(0), 5);
    const [send] = outbox.claim(6, 10, () => 10);
    assert.equal(outbox.nextDueAt(0), undefined, 'nothing pending');
    assert.equal(outbox.retryDead(send!.seq, 7), false, 'an item in flight is not retried');
    outbox.settleAll([
      { seq: send!.seq, state: 'dead', now: 7, details: { reason: 'http_400', status: 400 } },
    ]);
    assert.deepEqual(outbox.sendOf('n1', 'r1'), { state: 'dead' });
    assert.equal(outbox.retryDead(send!.seq, 8), true);
    assert.deepEqual(
      [outbox.get(send!.seq)!.state, outbox.get(send!.seq)!.attempts, outbox.nextDueAt(0)],
      ['pending', 0, 8],
    );
    outbox.claim(9, 10, () => 10);
    outbox.settleAll([{ seq: send!.seq, state: 'delivered', now: 9, details: { reference: 'ref-1' } }]);
    assert.deepEqual(outbox.sendOf('n1', 'r1'), { state: 'delivered', reference: 'ref-1' });
    assert.equal(outbox.sendOf('n1', 'r2'), undefined);
    outbox.enqueue('n1', [item('r1', true, 'update')], 10);
    const [update] = outbox.claim(10, 10, () => 10);
    outbox.settleAll([{ seq: update!.seq, state: 'delivered', now: 11, details: {} }]);
    assert.equal(outbox.purgeDelivered(), 1, 'the update goes; the send of a live notification stays');
    assert.deepEqual(
      outbox.list(undefined, 10).map((each) => [each.operation, each.state]),
      [['send', 'delivered']],
    );

    notify('n2');
    outbox.enqueue('n2', [item('r1')], 12);
    db.prepare('DELETE FROM providers').run();
    assert.equal(outbox.recoverInFlight(13), 0);
    const [orphan] = outbox.list('dead', 10);
    assert.deepEqual([orphan?.notificationId, orphan?.lastReason], ['n2', 'provider_deleted']);
  });

  it("names a relay answer's delivered sends through one provider and tells whether one is still under way", () => {
    const outbox = new OutboxStore(db);
    for (const id of ['relay', 'p-r4']) {
      const provider = {
        id,
        kind: 'webhook',
        name: id,
        enabled: true,
        settings: {},
        createdAt: 1,
        updatedAt: 1,
      };
      new ProviderStore(db).save(provider, new Map());
    }
    notify('n1');
    notify('n2');
    const relay = (routeId: string): PlannedItem => ({ ...item(routeId), providerId: 'relay' });
    outbox.enqueue('n1', [relay('r1'), relay('r2'), relay('r3'), item('r4')], 5);
    outbox.enqueue('n2', [relay('r1')], 5);
    outbox.expandIntake();
    assert.equal(outbox.hasUnsettled('n1', 'relay'), true, 'pending');
    const claimed = outbox.claim(6, 10, () => 10);
    const seqOf = (notificationId: string, routeId: string) =>
      claimed.find((each) => each.notificationId === notificationId && each.routeId === routeId)!.seq;
    assert.equal(outbox.hasUnsettled('n1', 'relay'), true, 'in flight');
    outbox.settleAll([
      { seq: seqOf('n1', 'r1'), state: 'delivered', now: 7, details: { reference: 'evt-1' } },
      { seq: seqOf('n1', 'r2'), state: 'delivered', now: 7, details: {} },
      { seq: seqOf('n1', 'r3'), state: 'pending', now: 7, details: { nextAttemptAt: 60 } },
      { seq: seqOf('n1', 'r4'), state: 'delivered', now: 7, details: { reference: 'other-provider' } },
      { seq: seqOf('n2', 'r1'), state: 'delivered', now: 7, details: { reference: 'evt-n2' } },
    ]);
    assert.deepEqual(outbox.deliveredReferences('n1', 'relay'), ['evt-1']);
    assert.equal(outbox.hasUnsettled('n1', 'relay'), true, 'a retry is due later');
    assert.equal(outbox.hasUnsettled('n2', 'relay'), false);
    assert.equal(outbox.hasUnsettled('n1', 'p-r4'), false);
    outbox.claim(60, 10, () => 10);
    outbox.settleAll([{ seq: seqOf('n1', 'r3'), state: 'dead', now: 61, details: { reason: 'http_400' } }]);
    assert.equal(outbox.hasUnsettled('n1', 'relay'), false, 'a dead send is settled');
    assert.deepEqual(outbox.deliveredReferences('n1', 'relay'), ['evt-1']);
  });

  it('still sends a notification deleted before the intake was moved', () => {
    const outbox = new OutboxStore(db);
    const notifications = new NotificationStore(db);
    notify('n1');
    notifications.setStatus('n1', 'dismissed', 6);
    outbox.enqueue('n1', [item('r1', true, 'clear')], 6);
    assert.equal(notifications.pruneTerminalBefore(100), 1);
    const [cleared] = outbox.list(undefined, 10);
    assert.deepEqual([cleared!.payload.title, cleared!.payload.status], ['Deploy?', 'dismissed']);
  });
  it("claims only due items, at most the limit and each provider's capacity, and never an update before its send is done", () => {
    const outbox = new OutboxStore(db);
    const providers = new ProviderStore(db);
    for (const id of ['p-a', 'p-b']) {
      providers.save(
        { id, kind: 'webhook', name: id, enabled: true, settings: {}, createdAt: 1, updatedAt: 1 },
        new Map(),
      );
    }
    for (const n of ['n1', 'n2', 'n3']) {
      notify(n);
      outbox.enqueue(n, [item('a'), item('b')], 5);
    }
    assert.equal(outbox.hasIntake(), true);
    assert.deepEqual(
      outbox.claim(4, 10, () => 10),
      [],
      'nothing is due before its time',
    );
    assert.equal(outbox.hasIntake(), false, 'the claim moved the intake');
    const capacity = (providerId: string) => (providerId === 'p-a' ? 0 : 2);
    const claimed = outbox.claim(5, 10, capacity);
    assert.deepEqual(
      claimed.map((each) => [each.providerId, each.notificationId, each.state, each.attempts]),
      [
        ['p-b', 'n1', 'in_flight', 1],
        ['p-b', 'n2', 'in_flight', 1],
      ],
      'none of a provider without capacity, two of one with room for two',
    );
    assert.deepEqual(
      outbox.claim(5, 1, () => 10).map((each) => each.providerId),
      ['p-a'],
      'no more than the limit in all',
    );
    assert.deepEqual(outbox.counts(), {
      waiting: 0,
      pending: 3,
      in_flight: 3,
      delivered: 0,
      dead: 0,
      cancelled: 0,
    });

    // n1's send to a retries at 50; its update, due at once, waits for it.
    const [sendA] = outbox.list('in_flight', 10).filter((each) => each.routeId === 'a');
    outbox.settleAll([{ seq: sendA!.seq, state: 'pending', now: 6, details: { nextAttemptAt: 50 } }]);
    outbox.enqueue('n1', [item('a', true, 'update')], 7);
    const early = outbox.claim(8, 10, () => 10);
    assert.deepEqual(
      early.map((each) => [each.notificationId, each.routeId, each.operation]),
      [
        ['n2', 'a', 'send'],
        ['n3', 'a', 'send'],
        ['n3', 'b', 'send'],
      ],
    );
    assert.equal(outbox.nextDueAt(8), 50, 'the update is no wake-up before its send');
    const late = outbox.claim(50, 10, () => 10);
    assert.deepEqual(
      late.map((each) => [each.notificationId, each.operation, each.attempts]),
      [['n1', 'send', 2]],
    );
    outbox.settleAll([{ seq: late[0]!.seq, state: 'delivered', now: 51, details: { reference: 'm-1' } }]);
    assert.deepEqual(
      outbox.claim(52, 10, () => 10).map((each) => [each.notificationId, each.operation]),
      [['n1', 'update']],
    );
  });

  it("records each settlement on its item, keeps a reference, does not count an attempt cut short, and keeps each provider's latest result", () => {
    const outbox = new OutboxStore(db);
    const providers = new ProviderStore(db);
    for (const id of ['p-a', 'p-b']) {
      providers.save(
        { id, kind: 'webhook', name: id, enabled: true, settings: {}, createdAt: 1, updatedAt: 1 },
        new Map(),
      );
    }
    notify('n1');
    outbox.enqueue('n1', [item('a'), item('b')], 5);
    const [a, b] = outbox.claim(5, 10, () => 10);
    const result = (outcome: 'delivered' | 'retry', at: number) => ({ outcome, at, durationMs: 3 });
    outbox.settleAll([
      {
        seq: a!.seq,
        state: 'pending',
        now: 6,
        details: { nextAttemptAt: 60, reference: 'msg-1', reason: 'http_503', status: 503 },
        provider: { id: 'p-a', lastResult: result('retry', 6) },
      },
      {
        seq: b!.seq,
        state: 'pending',
        now: 6,
        details: { nextAttemptAt: 6, uncounted: true },
      },
    ]);
    const first = outbox.get(a!.seq)!;
    assert.deepEqual(
      [
        first.state,
        first.attempts,
        first.nextAttemptAt,
        first.reference,
        first.lastReason,
        first.lastStatus,
        first.updatedAt,
      ],
      ['pending', 1, 60, 'msg-1', 'http_503', 503, 6],
    );
    assert.equal(outbox.get(b!.seq)!.attempts, 0, 'an attempt cut short by a stop does not count');
    assert.equal(providers.get('p-b')?.lastResult, undefined, 'an attempt that never reached the provider');

    notify('n2');
    outbox.enqueue('n2', [item('a')], 60);
    const [again, other] = outbox.claim(60, 10, () => 10).filter((each) => each.routeId === 'a');
    assert.deepEqual([again?.notificationId, other?.notificationId], ['n1', 'n2']);
    outbox.settleAll([
      {
        seq: other!.seq,
        state: 'pending',
        now: 61,
        details: { nextAttemptAt: 90, reason: 'timeout' },
        provider: { id: 'p-a', lastResult: result('retry', 60) },
      },
      {
        seq: again!.seq,
        state: 'delivered',
        now: 61,
        details: {},
        provider: { id: 'p-a', lastResult: result('delivered', 61) },
      },
    ]);
    const delivered = outbox.get(a!.seq)!;
    assert.deepEqual(
      [delivered.state, delivered.attempts, delivered.reference, delivered.lastReason, delivered.lastStatus],
      ['delivered', 2, 'msg-1', undefined, undefined],
      'the reference stays; the last failure is cleared',
    );
    assert.deepEqual(
      providers.get('p-a')?.lastResult,
      result('delivered', 61),
      'the latest result of the batch, one per provider',
    );
  });
  it("shows items still in the intake to a list, a send's state and the routes sent to, counting only sends", () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    assert.deepEqual(
      outbox.list(undefined, 10).map((each) => [each.notificationId, each.routeId, each.state]),
      [['n1', 'r1', 'pending']],
    );
    notify('n2');
    outbox.enqueue('n2', [item('r1')], 6);
    assert.deepEqual(outbox.sendOf('n2', 'r1'), { state: 'pending' });
    notify('n3');
    outbox.enqueue('n3', [item('r2', true, 'update')], 7);
    assert.deepEqual([...outbox.sendsOf('n3')], [], 'an update is no send');
  });

  it("tells an answered notification's resolve from a plain one", () => {
    const outbox = new OutboxStore(db);
    const notifications = new NotificationStore(db);
    notify('asked', { actions: [{ id: 'ok', label: 'OK' }] });
    notifications.answer('asked', { action: 'ok', surface: 'cli', answeredAt: 6 });
    outbox.enqueue('asked', [item('r1', true, 'clear')], 6);
    notify('plain');
    notifications.setStatus('plain', 'resolved', 7);
    outbox.enqueue('plain', [item('r1', true, 'clear')], 7);
    assert.deepEqual(
      outbox
        .list(undefined, 10)
        .reverse()
        .map((each) => [each.notificationId, each.event]),
      [
        ['asked', 'notification.answered'],
        ['plain', 'notification.resolved'],
      ],
    );
  });
  it('lists and counts by every state the API accepts, in its order', () => {
    const outbox = new OutboxStore(db);
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    assert.deepEqual(Object.keys(outbox.counts()), [...OUTBOX_STATES]);
    assert.deepEqual(
      OUTBOX_STATES.map((state) => outbox.list(state, 10).length),
      [0, 1, 0, 0, 0, 0],
    );
  });

  it('moves only as many intake rows as a claim is told, the rest on later claims, in order', () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) {
      notify(id);
      outbox.enqueue(id, [item('r')], 5);
    }
    const claimed = (intakeRows: number) =>
      outbox.claim(10, 10, () => 10, intakeRows).map((each) => each.notificationId);
    assert.deepEqual(claimed(2), ['n1', 'n2']);
    assert.equal(outbox.hasIntake(), true);
    assert.deepEqual(claimed(2), ['n3', 'n4']);
    assert.deepEqual(claimed(2), ['n5']);
    assert.equal(outbox.hasIntake(), false);
  });

  it('refuses to move an intake row whose notification is gone without a copy, moving nothing', () => {
    const outbox = new OutboxStore(db);
    assert.throws(() => outbox.enqueue('never-stored', [item('r1')], 5), {
      message: 'no notification never-stored to enqueue the items of',
    });
    assert.equal(outbox.hasIntake(), false, 'an enqueue without its notification writes nothing');
    // Such a row can still come from a file a recovery copied in part.
    db.prepare('INSERT INTO outbox_intake (notification_id, items, created_at) VALUES (?, ?, ?)').run(
      'never-stored',
      JSON.stringify([['r1', 'p-r1', 'send', 1]]),
      5,
    );
    assert.throws(() => outbox.expandIntake(), {
      message: 'outbox intake row 1 has lost its notification',
    });
    assert.equal(outbox.hasIntake(), true);
    assert.deepEqual(outbox.list(undefined, 10), [], 'a read still answers, from the table as it is');
  });

  it('gives a provider that is over its limit (capacity below zero) nothing', () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r1', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    assert.deepEqual(
      outbox.claim(10, 10, () => -1),
      [],
    );
    assert.equal(outbox.counts().pending, 1);
  });

  it("keeps on the send the reference an update delivered with, and only a delivered one's", () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r1', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    notify('n1');
    outbox.enqueue('n1', [item('r1')], 5);
    const [send] = outbox.claim(5, 10, () => 10);
    outbox.settleAll([{ seq: send!.seq, state: 'delivered', now: 6, details: { reference: 'ref-1' } }]);
    notify('n1', { title: 'v2' }, 7);
    outbox.enqueue('n1', [item('r1', true, 'update')], 7);
    const [update] = outbox.claim(7, 10, () => 10);
    outbox.settleAll([
      { seq: update!.seq, state: 'pending', now: 8, details: { nextAttemptAt: 9, reference: 'ref-try' } },
    ]);
    assert.deepEqual(outbox.sendOf('n1', 'r1'), { state: 'delivered', reference: 'ref-1' }, 'a retry');
    outbox.claim(9, 10, () => 10);
    outbox.settleAll([{ seq: update!.seq, state: 'delivered', now: 10, details: {} }]);
    assert.deepEqual(outbox.sendOf('n1', 'r1'), { state: 'delivered', reference: 'ref-1' }, 'no reference');
    notify('n1', { title: 'v3' }, 11);
    outbox.enqueue('n1', [item('r1', true, 'update')], 11);
    const [next] = outbox.claim(11, 10, () => 10);
    outbox.settleAll([{ seq: next!.seq, state: 'delivered', now: 12, details: { reference: 'ref-2' } }]);
    assert.deepEqual(outbox.sendOf('n1', 'r1'), { state: 'delivered', reference: 'ref-2' });
    assert.deepEqual(outbox.deliveredReferences('n1', 'p-r1'), ['ref-2']);
    assert.equal(outbox.get(next!.seq)!.reference, 'ref-2');
  });

  it('knows from the outbox table which sends went, wait, were cancelled or died', () => {
    const outbox = new OutboxStore(db);
    for (const id of ['p-went', 'p-waits', 'p-called-off', 'p-due', 'p-died']) {
      const provider = { id, kind: 'webhook', name: id, enabled: true, settings: {} };
      new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    }
    notify('n1');
    const waits = (routeId: string): PlannedItem => ({ ...item(routeId), delaySeconds: 300 });
    outbox.enqueue('n1', [item('went'), waits('waits'), waits('called-off'), item('died')], 5);
    outbox.enqueue('n1', [{ ...waits('called-off'), operation: 'cancel' }], 5);
    const claimed = outbox.claim(5, 10, (provider) => (provider === 'p-due' ? 0 : 10));
    outbox.settleAll([
      {
        seq: claimed.find((each) => each.routeId === 'died')!.seq,
        state: 'dead',
        now: 6,
        details: { reason: 'http_400' },
      },
    ]);
    outbox.enqueue('n1', [item('due')], 6);
    outbox.expandIntake();
    assert.equal(outbox.hasIntake(), false);
    assert.deepEqual(Object.fromEntries(outbox.sendsOf('n1')), {
      went: 'sent',
      waits: 'waiting',
      'called-off': 'cancelled',
      due: 'sent',
    });
    const routesOf = (state: 'waiting' | 'pending') =>
      outbox.list(state, 10, 'n1').map((each) => each.routeId);
    assert.deepEqual(routesOf('waiting'), ['waits']);
    assert.deepEqual(routesOf('pending'), ['due']);
  });
  it('lets a send enqueued again after it died go as the notification is now, before a retry by hand', () => {
    const outbox = new OutboxStore(db);
    const provider = { id: 'p-r1', kind: 'webhook', name: 'hook', enabled: true, settings: {} };
    new ProviderStore(db).save({ ...provider, createdAt: 1, updatedAt: 1 }, new Map());
    notify('n1', { title: 'v1' }, 5);
    outbox.enqueue('n1', [item('r1')], 5);
    const [send] = outbox.claim(5, 10, () => 10);
    outbox.settleAll([{ seq: send!.seq, state: 'dead', now: 6, details: { reason: 'http_400' } }]);
    notify('n1', { title: 'v2' }, 8);
    outbox.enqueue('n1', [item('r1')], 8);
    assert.equal(outbox.retryDead(send!.seq, 9), false, 'no longer dead: it is being sent again');
    const again = outbox.get(send!.seq)!;
    assert.deepEqual([again.state, again.attempts, again.payload.title], ['pending', 0, 'v2']);
  });
});

describe("the intake's upgrade to rows keyed in their notification's range (migration 10)", () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-intake-upgrade-'));
    file = join(dir, 'notify.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every waiting change, in order, and a deleted notification’s copy, and goes on numbering', () => {
    const before = openDatabase(file, MIGRATIONS.slice(0, 9));
    // The rows as the broker of schema 9 wrote them (today's store needs today's columns).
    const insert = before.prepare(`
      INSERT INTO notifications (id, key, agent, type, priority, title, message, status, created_at, updated_at)
      VALUES (?, ?, 'claude', 'question', 'high', ?, 'the message', 'active', 5, 5)`);
    for (const id of ['n1', 'n2']) insert.run(id, id, `${id} first`);
    // As the broker before migration 10 wrote them: numbered across notifications.
    const intake = before.prepare(
      'INSERT INTO outbox_intake (notification_id, items, created_at) VALUES (?, ?, ?)',
    );
    intake.run('n1', JSON.stringify([['r1', 'p-r1', 'send', 1]]), 5);
    intake.run('n2', JSON.stringify([['r2', 'p-r2', 'send', 1]]), 5);
    intake.run('n1', JSON.stringify([['r1', 'p-r1', 'update', 1]]), 6);
    before.prepare("UPDATE notifications SET status = 'dismissed', updated_at = 6 WHERE id = 'n2'").run();
    assert.equal(
      before.prepare("DELETE FROM notifications WHERE status <> 'active'").run().changes,
      1,
      'n2 goes while its send waits in the intake',
    );
    before.close();

    const db = openDatabase(file);
    try {
      const n1 = db.prepare<[], { seq: number }>("SELECT seq FROM notifications WHERE id = 'n1'").get()!.seq;
      const keys = db
        .prepare<[], { id: string; key: string }>(
          'SELECT notification_id AS id, CAST(seq AS TEXT) AS key FROM outbox_intake ORDER BY seq',
        )
        .all();
      const start = BigInt(n1) * BigInt(INTAKE_RANGE);
      assert.deepEqual(keys, [
        { id: 'n2', key: '-2' },
        { id: 'n1', key: String(start) },
        { id: 'n1', key: String(start + 1n) },
      ]);
      const outbox = new OutboxStore(db);
      assert.deepEqual([...outbox.sendsOf('n1')], [['r1', 'sent']], 'the send still in the intake is found');
      new NotificationStore(db).upsert('n1', { ...DRAFT, key: 'n1', title: 'n1 second' }, 7, {});
      outbox.enqueue('n1', [item('r9')], 7);
      assert.equal(
        db.prepare('SELECT CAST(max(seq) AS TEXT) FROM outbox_intake').pluck().get(),
        String(start + 2n),
      );
      assert.deepEqual(
        outbox
          .list(undefined, 10)
          .reverse()
          .map((each) => [each.notificationId, each.routeId, each.operation, each.payload.title]),
        [
          ['n2', 'r2', 'send', 'n2 first'],
          ['n1', 'r1', 'send', 'n1 first'],
          ['n1', 'r1', 'update', 'n1 first'],
          ['n1', 'r9', 'send', 'n1 second'],
        ],
      );
    } finally {
      db.close();
    }
  });
});
