import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createIdGenerator } from '../../src/broker/ids.js';
import type { NotificationDraft } from '../../src/domain/notification.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { NotificationStore } from '../../src/store/notification-store.js';

const draft: NotificationDraft = { agent: 'ci', type: 'info', priority: 'normal', title: 't', message: 'm' };

describe('ARC event identity in the notification store', () => {
  let dir: string;
  let db: Db;
  let store: NotificationStore;
  const newId = createIdGenerator();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-arc-store-'));
    db = openDatabase(join(dir, 'notify.db'));
    store = new NotificationStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = () => (db.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number }).n;
  const event = { senderId: 'ci', eventId: 'e1' };

  it('inserts the first event as a new notification', () => {
    const result = store.upsert(newId(), draft, 1000, { event });
    assert.equal(result.created, true);
    assert.equal(count(), 1);
  });

  it('returns the original, unchanged, for the same sender and event id', () => {
    const first = store.upsert(newId(), draft, 1000, { event });
    const again = store.upsert(newId(), { ...draft, title: 'changed', message: 'changed' }, 2000, { event });
    assert.equal(again.created, false);
    assert.deepEqual(again.record, first.record);
    assert.equal(count(), 1);
  });

  it('returns the original after it was resolved', () => {
    const first = store.upsert(newId(), draft, 1000, { event });
    store.setStatus(first.record.id, 'resolved', 1500);
    const again = store.upsert(newId(), draft, 2000, { event });
    assert.equal(again.created, false);
    assert.equal(again.record.status, 'resolved');
  });

  it('keys identity on the sender and the event id together', () => {
    store.upsert(newId(), draft, 1000, { event });
    assert.equal(
      store.upsert(newId(), draft, 1000, { event: { senderId: 'other', eventId: 'e1' } }).created,
      true,
    );
    assert.equal(
      store.upsert(newId(), draft, 1000, { event: { senderId: 'ci', eventId: 'e2' } }).created,
      true,
    );
    assert.equal(count(), 3);
  });

  it('refreshes only an active key with activeOnly, and never inserts', () => {
    const keyed = { ...draft, key: 'build' };
    assert.equal(store.upsert(newId(), keyed, 1000, { activeOnly: true }), undefined);
    assert.equal(count(), 0);
    const first = store.upsert(newId(), keyed, 1000);
    const refreshed = store.upsert(newId(), { ...keyed, message: 'new' }, 2000, { activeOnly: true });
    assert.equal(refreshed?.created, false);
    assert.equal(refreshed?.record.id, first.record.id);
    assert.equal(refreshed?.record.message, 'new');
    store.setStatus(first.record.id, 'resolved', 3000);
    assert.equal(store.upsert(newId(), keyed, 4000, { activeOnly: true }), undefined);
    assert.equal(count(), 1);
  });

  it('leaves native creates without identity alone', () => {
    store.upsert(newId(), draft, 1000);
    store.upsert(newId(), draft, 1000);
    assert.equal(count(), 2);
  });

  it('forgets the identity when retention deletes its notification', () => {
    const first = store.upsert(newId(), draft, 1000, { event });
    store.setStatus(first.record.id, 'resolved', 1000);
    assert.equal(store.pruneTerminalBefore(5000), 1);
    assert.equal(store.upsert(newId(), draft, 6000, { event }).created, true);
  });
});

describe('migration 2', () => {
  it('upgrades a version 1 database and keeps its notifications', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-arc-migrate-'));
    try {
      const file = join(dir, 'notify.db');
      const v1 = openDatabase(
        file,
        MIGRATIONS.filter((migration) => migration.version === 1),
      );
      v1.prepare(
        `INSERT INTO notifications (id, key, agent, type, priority, title, message, status, created_at, updated_at)
         VALUES ('n-1', 'k', 'ci', 'info', 'normal', 't', 'm', 'active', 1, 1)`,
      ).run();
      v1.close();
      const db = openDatabase(file);
      try {
        assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version);
        const store = new NotificationStore(db);
        assert.equal(store.conditionByKey('k')?.id, 'n-1');
        assert.equal(
          store.upsert('n-2', draft, 2, { event: { senderId: 'ci', eventId: 'e1' } }).created,
          true,
        );
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the latest-by-key lookup from an index', () => {
    const db = openDatabase(':memory:');
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id FROM notifications WHERE key = ? ORDER BY status = 'active' DESC, seq DESC LIMIT 1`,
        )
        .all('k') as { detail: string }[];
      assert.match(plan.map((row) => row.detail).join('\n'), /USING INDEX notifications_key/);
    } finally {
      db.close();
    }
  });
});
