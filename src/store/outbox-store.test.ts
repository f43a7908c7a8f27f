import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { OutboundNotification } from '../delivery/provider.js';
import type { PlannedItem } from '../domain/delivery/delivery-plan.js';
import { openDatabase, type Db } from './database.js';
import { OutboxStore } from './outbox-store.js';
import { ProviderStore } from './provider-store.js';

const payload = (id: string, message?: string): OutboundNotification => ({
  id,
  title: 'Deploy?',
  ...(message !== undefined && { message }),
  type: 'question',
  priority: 'high',
  status: 'active',
  agent: 'claude',
  createdAt: '2026-11-24T10:00:00.000+00:00',
  updatedAt: '2026-11-24T10:00:00.000+00:00',
});

const send = (routeId: string, shared: OutboundNotification): PlannedItem => ({
  routeId,
  providerId: `p-${routeId}`,
  operation: 'send',
  event: 'notification.created',
  payload: shared,
  idempotencyKey: `${shared.id}.${routeId}`,
});

describe('the outbox intake: one row per change, expanded into items before anything reads them', () => {
  let dir: string;
  let file: string;
  let db: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-outbox-store-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every item of a change, each with its own payload, to every reader', () => {
    const outbox = new OutboxStore(db);
    const full = payload('n1', 'the message');
    const titleOnly = payload('n1');
    outbox.enqueue('n1', [send('r1', full), send('r2', full), send('r3', titleOnly)], 5);
    assert.deepEqual(outbox.counts(), { pending: 3, in_flight: 0, delivered: 0, dead: 0 });
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
    assert.deepEqual(items[0]!.payload, full);
    assert.equal(items[0]!.createdAt, 5);
  });

  it('keeps a change enqueued but not yet expanded through a restart', () => {
    new OutboxStore(db).enqueue('n1', [send('r1', payload('n1'))], 5);
    db.close();
    db = openDatabase(file);
    assert.equal(new OutboxStore(db).counts().pending, 1);
  });

  it('enqueues an item once however often its change is written (idempotency key)', () => {
    const outbox = new OutboxStore(db);
    const shared = payload('n1');
    outbox.enqueue('n1', [send('r1', shared)], 5);
    outbox.enqueue('n1', [send('r1', shared), send('r2', shared)], 6);
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
        outbox.enqueue('n1', [send('r1', payload('n1'))], 5);
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
      for (let n = 0; n < 1200; n++) outbox.enqueue(`n${n}`, [send('r', payload(`n${n}`))], 5);
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
    outbox.enqueue('n1', [send('r1', payload('n1'))], 5);
    outbox.counts();
    outbox.enqueue('n2', [send('r1', payload('n2'))], 6);
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
});
