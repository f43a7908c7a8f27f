import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createIdGenerator } from '../../src/broker/ids.js';
import type { NotificationDraft } from '../../src/domain/notification.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { EventStore } from '../../src/store/event-store.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { NotificationStore } from '../../src/store/notification-store.js';

const draft: NotificationDraft = { agent: 'ci', type: 'info', priority: 'normal', title: 't', message: 'm' };

describe('EventStore (arc_events)', () => {
  let dir: string;
  let db: Db;
  let notifications: NotificationStore;
  let events: EventStore;
  const newId = createIdGenerator();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-arc-store-'));
    db = openDatabase(join(dir, 'notify.db'));
    notifications = new NotificationStore(db);
    events = new EventStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = () => (db.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number }).n;
  const create = () => notifications.upsert(newId(), draft, 1000);

  it('records the first event and returns what create made', () => {
    const outcome = events.createOnce('ci', 'e1', 1000, create);
    assert.ok('result' in outcome);
    assert.equal(events.notificationOf('ci', 'e1'), outcome.result.record.id);
    assert.equal(count(), 1);
  });

  it('rolls back the duplicate insert and names the original notification', () => {
    const first = events.createOnce('ci', 'e1', 1000, create);
    assert.ok('result' in first);
    const second = events.createOnce('ci', 'e1', 2000, create);
    assert.deepEqual(second, { originalId: first.result.record.id });
    assert.equal(count(), 1);
  });

  it('keys identity on the sender and the event id together', () => {
    events.createOnce('ci', 'e1', 1000, create);
    assert.ok('result' in events.createOnce('other', 'e1', 1000, create));
    assert.ok('result' in events.createOnce('ci', 'e2', 1000, create));
    assert.equal(count(), 3);
  });

  it('lets a throwing create leave nothing behind', () => {
    assert.throws(() =>
      events.createOnce('ci', 'e1', 1000, () => {
        create();
        throw new Error('boom');
      }),
    );
    assert.equal(count(), 0);
    assert.equal(events.notificationOf('ci', 'e1'), undefined);
  });

  it('forgets the event when retention deletes its notification', () => {
    const outcome = events.createOnce('ci', 'e1', 1000, create);
    assert.ok('result' in outcome);
    notifications.setStatus(outcome.result.record.id, 'resolved', 1000);
    assert.equal(notifications.pruneTerminalBefore(5000), 1);
    assert.equal(events.notificationOf('ci', 'e1'), undefined);
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
      const id = new NotificationStore(v1).upsert('n-1', { ...draft, key: 'k' }, 1000).record.id;
      v1.close();
      const db = openDatabase(file);
      try {
        assert.equal(db.pragma('user_version', { simple: true }), 2);
        assert.equal(new NotificationStore(db).conditionByKey('k')?.id, id);
        assert.ok('result' in new EventStore(db).createOnce('ci', 'e1', 2000, () => ({ record: { id } })));
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
