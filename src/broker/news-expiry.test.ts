import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TypeCatalog } from '../domain/type-definition.js';
import type { Logger } from '../log/logger.js';
import { openDatabase } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { ChangeFeed, type NotificationChange } from './change-feed.js';
import { NewsExpiryJob } from './news-expiry.js';
import { NotificationService } from './notification-service.js';

const MINUTE = 60_000;
const silent: Logger = { info: () => {}, warn: () => {}, error: () => {} };

describe('NewsExpiryJob', () => {
  it('resolves news after its type’s time without a change, never what needs a person', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-news-'));
    const db = openDatabase(join(dir, 'notify.db'));
    const store = new NotificationStore(db);
    const writes = new WriteQueue(db);
    const changes = new ChangeFeed();
    const seen: NotificationChange[] = [];
    changes.subscribe((change) => seen.push(change));
    const t0 = Date.UTC(2026, 0, 1);
    let now = t0;
    let next = 0;
    const types: TypeCatalog = {
      info: { enabled: true, resolveAfterMinutes: 5 },
      nightly: { enabled: true, resolveAfterMinutes: 0 },
    };
    const service = new NotificationService({
      store,
      writes,
      clock: () => now,
      newId: () => `n${++next}`,
      types: () => types,
      changes,
    });
    const create = async (type: string, key?: string) =>
      (await service.create({ title: type, message: 'm', type, ...(key && { key }) })).record.id;
    const completed = await create('completed');
    const info = await create('info');
    const deploy = await create('deploy');
    const permission = await create('permission_required');
    const nightly = await create('nightly');
    const refreshed = await create('success', 'progress');
    now = t0 + 30 * MINUTE;
    await create('success', 'progress');
    const job = new NewsExpiryJob({ store, service, types: () => types, clock: () => now, log: silent });
    const status = (id: string) => store.get(id)?.status;

    assert.equal(await job.tick(t0 + 59 * MINUTE), 1);
    assert.equal(status(info), 'resolved', 'its own 5 minutes');
    assert.equal(await job.tick(t0 + 61 * MINUTE), 2);
    assert.deepEqual([status(completed), status(deploy)], ['resolved', 'resolved'], 'the default hour');
    assert.equal(status(refreshed), 'active', 'an update 30 minutes in starts its hour again');
    assert.equal(await job.tick(t0 + 91 * MINUTE), 1);
    assert.equal(status(refreshed), 'resolved');
    assert.equal(await job.tick(t0 + 1000 * 24 * 60 * MINUTE), 0);
    assert.deepEqual([status(permission), status(nightly)], ['active', 'active']);
    assert.deepEqual(
      seen.filter((change) => change.kind === 'status').map((change) => change.record.id),
      [info, completed, deploy, refreshed],
      'each resolution is a change like any other (toasts, tray, providers follow)',
    );
    writes.close();
    db.close();
    rmSync(dir, { recursive: true });
  });

  it('keeps a notification that changed after it was picked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-news-'));
    const db = openDatabase(join(dir, 'notify.db'));
    const store = new NotificationStore(db);
    const writes = new WriteQueue(db);
    let now = Date.UTC(2026, 0, 1);
    const service = new NotificationService({
      store,
      writes,
      clock: () => now,
      newId: () => 'n1',
      types: () => ({}),
    });
    const { record } = await service.create({ title: 't', message: 'm', type: 'info', key: 'k' });
    now += MINUTE;
    await service.create({ title: 't2', message: 'm', type: 'info', key: 'k' });
    assert.equal((await service.resolveUnchanged(record.id, record.updatedAt))?.status, 'active');
    writes.close();
    db.close();
    rmSync(dir, { recursive: true });
  });
});
