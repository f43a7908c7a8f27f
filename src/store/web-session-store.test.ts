import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { WebSessionStore, type WebSessionRecord } from './web-session-store.js';

const session = (id: string, fields: Partial<WebSessionRecord> = {}): WebSessionRecord => ({
  id,
  secretHash: `hash-${id}`,
  tokenFingerprint: 'fp-current',
  userAgent: 'Firefox',
  createdAt: 100,
  lastSeenAt: 100,
  expiresAt: 1000,
  ...fields,
});

describe('WebSessionStore on a real database file', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let store: WebSessionStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-web-sessions-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
    store = new WebSessionStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const reopen = () => {
    db.close();
    db = openDatabase(file);
    store = new WebSessionStore(db);
  };

  it('finds a signed-in session by its secret hash after a restart, every field as stored', () => {
    store.insert(session('s1'));
    store.insert(session('s2', { userAgent: null }));
    reopen();
    assert.deepEqual(store.bySecretHash('hash-s1'), session('s1'));
    assert.deepEqual(store.bySecretHash('hash-s2'), session('s2', { userAgent: null }));
    assert.equal(store.bySecretHash('hash-unknown'), undefined);
  });

  it('lists the sessions newest first, ties by id', () => {
    store.insert(session('b', { createdAt: 200 }));
    store.insert(session('c', { createdAt: 100 }));
    store.insert(session('a', { createdAt: 200 }));
    assert.deepEqual(
      store.list().map((s) => s.id),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(store.list()[2], session('c', { createdAt: 100 }));
  });

  it('touch moves only that session’s last-seen time', () => {
    store.insert(session('s1'));
    store.insert(session('s2'));
    store.touch('s1', 150);
    assert.equal(store.bySecretHash('hash-s1')?.lastSeenAt, 150);
    assert.equal(store.bySecretHash('hash-s2')?.lastSeenAt, 100);
  });

  it('signing out one session leaves the others and says whether it existed', () => {
    store.insert(session('s1'));
    store.insert(session('s2'));
    assert.equal(store.remove('s1'), true);
    assert.equal(store.remove('s1'), false);
    assert.deepEqual(
      store.list().map((s) => s.id),
      ['s2'],
    );
  });

  it('signing out everywhere ends every session and counts them', () => {
    store.insert(session('s1'));
    store.insert(session('s2'));
    assert.equal(store.removeAll(), 2);
    assert.deepEqual(store.list(), []);
    assert.equal(store.removeAll(), 0);
  });

  it('a token rotation ends only the sessions signed in with another token', () => {
    store.insert(session('old1', { tokenFingerprint: 'fp-old' }));
    store.insert(session('cur', { tokenFingerprint: 'fp-current' }));
    store.insert(session('old2', { tokenFingerprint: 'fp-older' }));
    assert.equal(store.removeOtherTokens('fp-current'), 2);
    assert.deepEqual(
      store.list().map((s) => s.id),
      ['cur'],
    );
  });

  it('ends the sessions past their end or idle since the cutoff, the boundaries included', () => {
    store.insert(session('alive', { expiresAt: 1001, lastSeenAt: 501 }));
    store.insert(session('expired', { expiresAt: 1000, lastSeenAt: 900 }));
    store.insert(session('idle', { expiresAt: 5000, lastSeenAt: 500 }));
    assert.equal(store.removeEnded(1000, 500), 2);
    assert.deepEqual(
      store.list().map((s) => s.id),
      ['alive'],
    );
    assert.equal(store.removeEnded(1000, 500), 0);
  });
});
