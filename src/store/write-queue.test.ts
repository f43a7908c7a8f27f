import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import Database from './sqlite.js';
import type { NotificationDraft } from '../domain/notification.js';
import { openDatabase, type Db } from './database.js';
import { NotificationStore } from './notification-store.js';
import { StorageUnavailableError } from './storage-errors.js';
import { WriteQueue } from './write-queue.js';

const walSize = (databaseFile: string) =>
  statSync(`${databaseFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;

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
    assert.equal(
      (results[1] as PromiseRejectedResult).reason.message,
      'refused after its insert',
      'the failed write gets its own error, for the caller to answer with',
    );
    assert.ok(store.get('one'));
    assert.equal(store.get('two'), undefined, 'the failed write left nothing behind');
    assert.ok(store.get('three'));
  });

  it('applies the writes around a failing one exactly once, each answered with what it returned', async () => {
    db.exec('CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)');
    const add = db.prepare<[], { n: number }>('UPDATE counter SET n = n + 1 RETURNING n');
    const results = await Promise.allSettled([
      writes.run(() => add.get()!.n),
      writes.run(() => {
        add.get();
        throw new Error('refused after its change');
      }),
      writes.run(() => add.get()!.n),
    ]);
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? result.value : 'refused')),
      [1, 'refused', 2],
      'what the stored writes saw, not a first run that was undone',
    );
    assert.equal(db.prepare('SELECT n FROM counter').pluck().get(), 2, 'two changes stored, not four');
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
  it(
    'refuses every write of a batch at once when one of them finds the database full, and stores none of them',
    { timeout: 30_000 },
    async () => {
      // Room for a few rows more: the first writes of the batch fit, a later one does not.
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages + 3}`);
      // A full disk is no lock to wait for: the answer comes long before this wait would end.
      const patient = new WriteQueue(db, { lockWaitMs: 600_000 });
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => patient.run(() => store.upsert(`batch-${i}`, draft, i))),
      );
      patient.close();
      for (const result of results) {
        assert.equal(result.status, 'rejected');
        assert.ok(
          result.reason instanceof StorageUnavailableError && result.reason.problem === 'full',
          `refused as full: ${String(result.reason)}`,
        );
      }
      assert.equal(store.list({ limit: 100 }).length, 0, 'nothing of the batch was stored');
      db.pragma('max_page_count = 1073741823');
      await writes.run(() => store.upsert('after', draft, 20));
      assert.deepEqual(
        store.list({ limit: 100 }).map((record) => record.id),
        ['after'],
        'the next write is stored on its own',
      );
    },
  );

  it('waits for a lock held briefly by another program, half a second by default', async () => {
    const patient = new WriteQueue(db);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const pending = patient.run(() => store.upsert('waited', draft, 1));
      await sleep(150);
      other.exec('COMMIT');
      await pending;
      assert.ok(store.get('waited'), 'stored once the other program let go');
    } finally {
      other.close();
      patient.close();
    }
  });

  it('gives each write its own wait: an earlier one is refused as busy while a later one still waits', async () => {
    const queue = new WriteQueue(db, { lockWaitMs: 1000, lockRetryMs: 5 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const early = queue.run(() => store.upsert('early', draft, 1));
      await sleep(400);
      const late = queue.run(() => store.upsert('late', draft, 2));
      await assert.rejects(
        early,
        (error: unknown) => error instanceof StorageUnavailableError && error.problem === 'busy',
      );
      other.exec('COMMIT');
      await late;
    } finally {
      other.close();
      queue.close();
    }
    assert.equal(store.get('early'), undefined);
    assert.ok(store.get('late'), 'the later write, still within its wait, is stored');
  });

  it('on close, stores what was queued, refuses what waits for a lock, and refuses every later write', async () => {
    const queued = writes.run(() => store.upsert('queued', draft, 1));
    writes.close();
    assert.equal((await queued).created, true);
    assert.ok(store.get('queued'), 'a write queued before the close is stored');
    await assert.rejects(
      writes.run(() => store.upsert('late', draft, 2)),
      {
        name: 'StorageUnavailableError',
        problem: 'failed',
        message: 'failed: the database is closed',
      },
    );
    assert.equal(store.get('late'), undefined);

    const locked = new WriteQueue(db, { lockWaitMs: 5000, lockRetryMs: 5 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const waiting = locked.run(() => store.upsert('waiting', draft, 3));
      await sleep(20);
      locked.close();
      await assert.rejects(waiting, {
        name: 'StorageUnavailableError',
        problem: 'failed',
        message: 'failed: the database is closing',
      });
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    assert.equal(store.get('waiting'), undefined, 'a refused write is not stored later either');
  });

  it('truncates the write-ahead log once writes have stopped for the idle time', async () => {
    const idle = new WriteQueue(db, { idleCheckpointMs: 300 });
    const truncated = async (what: string) => {
      for (let waited = 0; walSize(file) > 0 && waited < 5000; waited += 20) await sleep(20);
      assert.equal(walSize(file), 0, what);
    };
    try {
      for (let i = 0; i < 4; i++) {
        await idle.run(() => store.upsert(`busy-${i}`, draft, i));
        await sleep(100);
      }
      assert.ok(walSize(file) > 0, 'the writes are in the log first');
      await truncated('truncated once a burst of writes has stopped');
      await idle.run(() => store.upsert('single', draft, 10));
      assert.ok(walSize(file) > 0);
      await truncated('truncated after a single write too');
      assert.equal(store.list({ limit: 100 }).length, 5, 'every write is in the database file');
    } finally {
      idle.close();
    }
  });
  it('leaves the write-ahead log empty when it closes', async () => {
    const closing = new WriteQueue(db, { idleCheckpointMs: 60_000 });
    await closing.run(() => store.upsert('last', draft, 1));
    assert.ok(walSize(file) > 0, 'the write is in the log first');
    closing.close();
    assert.equal(walSize(file), 0);
    assert.ok(store.get('last'));
  });

  it('rejects a write with the error itself when the database connection is gone', async () => {
    const other = openDatabase(join(dir, 'other.db'));
    const gone = new WriteQueue(other);
    other.close();
    await assert.rejects(
      gone.run(() => 1),
      { name: 'TypeError', message: 'The database connection is not open' },
    );
    gone.close();
  });
});
