import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { NotificationDraft } from '../domain/notification.js';
import type { Logger } from '../log/logger.js';
import { openDatabase } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { RetentionJob } from './retention.js';

const DAY = 24 * 60 * 60 * 1000;
const silent: Logger = { info: () => {}, warn: () => {}, error: () => {} };
const draft: NotificationDraft = { agent: 'a', type: 'info', priority: 'normal', title: 't', message: 'm' };

describe('RetentionJob', () => {
  it('prunes dismissed and resolved notifications older than retentionDays and keeps active ones forever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-retention-'));
    const db = openDatabase(join(dir, 'notify.db'));
    const store = new NotificationStore(db);
    const t0 = Date.UTC(2026, 0, 1);
    store.upsert('active-old', draft, t0);
    store.upsert('resolved-old', draft, t0);
    store.upsert('dismissed-old', draft, t0);
    store.upsert('resolved-recent', draft, t0);
    store.setStatus('resolved-old', 'resolved', t0);
    store.setStatus('dismissed-old', 'dismissed', t0);
    store.setStatus('resolved-recent', 'resolved', t0 + 20 * DAY);

    const writes = new WriteQueue(db);
    const job = new RetentionJob(
      store,
      writes,
      () => 30,
      () => t0,
      silent,
    );
    assert.equal(await job.tick(t0 + 29 * DAY), 0);
    assert.equal(await job.tick(t0 + 31 * DAY), 2);
    assert.ok(store.get('active-old'));
    assert.ok(store.get('resolved-recent'));
    assert.equal(store.get('resolved-old'), undefined);
    assert.equal(store.get('dismissed-old'), undefined);
    assert.equal(await job.tick(t0 + 1000 * DAY), 1);
    assert.ok(store.get('active-old'), 'active notifications are never pruned');
    writes.close();
    db.close();
    rmSync(dir, { recursive: true });
  });
});
