import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { NotificationDraft } from '../domain/notification.js';
import { openDatabase, type Db } from './database.js';
import { NotificationStore } from './notification-store.js';

const FULL: NotificationDraft = {
  key: 'deploy',
  agent: 'claude',
  agentInstance: 'tab-1',
  project: 'notify',
  type: 'input_required',
  priority: 'high',
  title: 'Deploy?',
  message: 'm',
  cwd: '/home/me/notify',
  pid: 0,
  metadata: { branch: 'main' },
};
const BARE: NotificationDraft = {
  agent: 'unknown',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'm',
};

describe('NotificationStore on a real database file', () => {
  let dir: string;
  let db: Db;
  let store: NotificationStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-notifications-'));
    db = openDatabase(join(dir, 'notify.db'));
    store = new NotificationStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every field and reads it back; an in-place update without them clears them', () => {
    const created = store.upsert('n1', FULL, 5);
    assert.equal(created.created, true);
    assert.deepEqual(store.get('n1'), { ...FULL, id: 'n1', status: 'active', createdAt: 5, updatedAt: 5 });
    const refreshed = store.upsert('n2', { ...BARE, key: 'deploy' }, 7);
    assert.equal(refreshed.created, false);
    assert.deepEqual(store.get('n1'), {
      ...BARE,
      key: 'deploy',
      id: 'n1',
      status: 'active',
      createdAt: 5,
      updatedAt: 7,
    });
    assert.equal(store.get('n2'), undefined);
  });

  it('sets resolvedAt on resolve only, and clears it on reopen', () => {
    store.upsert('n1', BARE, 5);
    assert.equal(store.setStatus('n1', 'dismissed', 6)?.resolvedAt, undefined);
    store.upsert('n2', BARE, 5);
    const resolved = store.setStatus('n2', 'resolved', 8)!;
    assert.deepEqual([resolved.status, resolved.resolvedAt, resolved.updatedAt], ['resolved', 8, 8]);
    const reopened = store.setStatus('n2', 'active', 9)!;
    assert.deepEqual([reopened.status, reopened.resolvedAt], ['active', undefined]);
    assert.equal(store.setStatus('missing', 'resolved', 9), undefined);
  });

  it('lists newest first, filtered by each column alone and together, up to the limit', () => {
    store.upsert('a', { ...FULL, key: 'ka' }, 1);
    store.upsert('b', { ...BARE, agent: 'codex', project: 'web', type: 'warning' }, 2);
    store.upsert('c', { ...BARE, key: 'kc', agent: 'claude', project: 'notify' }, 3);
    store.setStatus('c', 'resolved', 4);
    const ids = (filter: Partial<Parameters<NotificationStore['list']>[0]>) =>
      store.list({ limit: 100, ...filter }).map((record) => record.id);
    assert.deepEqual(ids({}), ['c', 'b', 'a']);
    assert.deepEqual(ids({ limit: 2 }), ['c', 'b']);
    assert.deepEqual(ids({ status: 'active' }), ['b', 'a']);
    assert.deepEqual(ids({ type: 'warning' }), ['b']);
    assert.deepEqual(ids({ project: 'notify' }), ['c', 'a']);
    assert.deepEqual(ids({ agent: 'claude' }), ['c', 'a']);
    assert.deepEqual(ids({ key: 'kc' }), ['c']);
    assert.deepEqual(ids({ agent: 'claude', status: 'active' }), ['a']);
    assert.deepEqual(ids({ agent: 'claude', status: 'active' }), ['a'], 'the same filter again');
    assert.deepEqual(store.list({ limit: 100, key: 'ka' })[0], store.get('a'));
  });

  it('keeps snoozes and reminders: due ones come back earliest first, a stale schedule loses, a status change clears them', () => {
    store.upsert('r1', { ...FULL, key: 'r1' }, 10, { remindAt: 310 });
    store.upsert('r2', { ...FULL, key: 'r2' }, 20, { remindAt: 320 });
    store.upsert('plain', BARE, 30);
    assert.equal(store.nextAlertAt(), 310);
    // A snooze takes over from the reminder until it ends.
    assert.equal(store.snooze('r1', 900)?.snoozedUntil, 900);
    assert.equal(store.nextAlertAt(), 320);
    assert.deepEqual(
      store.alertsDue(1000, 10).map(({ record, dueAt, schedule }) => [record.id, dueAt, schedule]),
      [
        ['r2', 320, { remindAt: 320, remindersSent: 0 }],
        ['r1', 900, { snoozedUntil: 900, remindAt: 310, remindersSent: 0 }],
      ],
    );
    assert.equal(store.reschedule('r1', 310, { remindersSent: 1 }), undefined, 'read before the snooze');
    const back = store.reschedule('r1', 900, { remindAt: 1200, remindersSent: 0 });
    assert.equal(back?.snoozedUntil, undefined);
    assert.equal(store.nextAlertAt(), 320);
    // An in-place update keeps the schedule; one that changes the type starts the new type's.
    store.upsert('x', { ...FULL, key: 'r2', title: 'again' }, 40, { remindAt: 999 });
    assert.equal(store.alertsDue(330, 10)[0]?.dueAt, 320);
    store.upsert('x', { ...FULL, key: 'r2', type: 'blocked' }, 50);
    assert.equal(store.alertsDue(330, 10).length, 0);
    // Resolved: nothing is due; reopened: the reminders start over.
    store.setStatus('r1', 'resolved', 60);
    assert.equal(store.nextAlertAt(), undefined);
    store.setStatus('r1', 'active', 70, 370);
    assert.deepEqual(store.alertsDue(400, 10)[0]?.schedule, { remindAt: 370, remindersSent: 0 });
    assert.equal(store.snooze('plain', 5)?.snoozedUntil, 5);
    store.setStatus('plain', 'dismissed', 80);
    assert.equal(store.snooze('plain', 500), undefined, 'a dismissed notification is not snoozed');
  });
});
