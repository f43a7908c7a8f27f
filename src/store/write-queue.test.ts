import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from './sqlite.js';
import type { NotificationDraft } from '../domain/notification.js';
import { openDatabase, type Db } from './database.js';
import { NotificationStore } from './notification-store.js';
import { StorageUnavailableError } from './storage-errors.js';
import { WriteQueue } from './write-queue.js';

const draft: NotificationDraft = {
  agent: 'a',
  type: 'info',
  priority: 'normal',
  title: 't',
  message: 'x'.repeat(2000),
};

describe('WriteQueue on a real database file', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let store: NotificationStore;
  let writes: WriteQueue;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-writes-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
    store = new NotificationStore(db);
    writes = new WriteQueue(db, { lockWaitMs: 300, lockRetryMs: 5 });
  });
  afterEach(() => {
    writes.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits the writes of one turn together, and a failing write undoes only itself', async () => {
    const results = await Promise.allSettled([
      writes.run(() => store.upsert('one', draft, 1)),
      writes.run(() => {
        store.upsert('two', draft, 1);
        throw new Error('refused after its insert');
      }),
      writes.run(() => store.upsert('three', draft, 1)),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.ok(store.get('one'));
    assert.equal(store.get('two'), undefined, 'the failed write left nothing behind');
    assert.ok(store.get('three'));
  });

  it('rejects every write as full when the database cannot grow, keeps each resolved one, and recovers when room returns', async () => {
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 20}`);
    const stored: string[] = [];
    let full: unknown;
    for (let i = 0; i < 500 && !full; i++) {
      try {
        await writes.run(() => store.upsert(`id-${i}`, draft, i));
        stored.push(`id-${i}`);
      } catch (error) {
        full = error;
      }
    }
    assert.ok(full instanceof StorageUnavailableError, `a write was refused: ${String(full)}`);
    assert.equal(full.problem, 'full');
    assert.ok(stored.length > 0);
    assert.equal(store.list({ limit: 1000 }).length, stored.length, 'reads work while full');
    for (const id of stored) assert.ok(store.get(id), `${id} resolved, so it is stored`);

    db.pragma('max_page_count = 1073741823');
    await writes.run(() => store.upsert('after', draft, 1000));
    assert.ok(store.get('after'));

    writes.close();
    db.close();
    const reopened = new Database(file, { readonly: true });
    try {
      const count = reopened.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number };
      assert.equal(count.n, stored.length + 1, 'every resolved write is in the file');
    } finally {
      reopened.close();
    }
    db = openDatabase(file);
    writes = new WriteQueue(db);
  });

  it('answers busy after lockWaitMs without blocking the event loop while another connection holds the write lock', async () => {
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = performance.now();
    try {
      await assert.rejects(
        writes.run(() => store.upsert('blocked', draft, 1)),
        (error: unknown) => error instanceof StorageUnavailableError && error.problem === 'busy',
      );
    } finally {
      clearInterval(ticker);
    }
    const waited = performance.now() - started;
    assert.ok(waited >= 250 && waited < 2000, `waited ${waited.toFixed(0)} ms`);
    assert.ok(ticks >= 10, `the event loop kept running (${ticks} ticks)`);

    const pending = writes.run(() => store.upsert('after-release', draft, 2));
    setTimeout(() => other.exec('COMMIT'), 50);
    await pending;
    other.close();
    assert.ok(store.get('after-release'), 'a write queued while locked commits once the lock is released');
    assert.equal(store.get('blocked'), undefined);
  });
});
