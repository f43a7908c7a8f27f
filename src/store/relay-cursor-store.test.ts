import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { ProviderStore } from './provider-store.js';
import { RelayCursorStore } from './relay-cursor-store.js';

const saveProvider = (providers: ProviderStore, id: string) =>
  providers.save(
    {
      id,
      kind: 'relay',
      name: `Relay ${id}`,
      enabled: true,
      settings: {},
      createdAt: 10,
      updatedAt: 10,
    },
    new Map(),
  );

describe('RelayCursorStore on a real database file', () => {
  let dir: string;
  let file: string;
  let db: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-relay-cursors-'));
    file = join(dir, 'notify.db');
    db = openDatabase(file);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the last applied event id per relay provider across a restart, the newest winning', () => {
    const providers = new ProviderStore(db);
    saveProvider(providers, 'p1');
    saveProvider(providers, 'p2');
    const cursors = new RelayCursorStore(db);
    assert.equal(cursors.lastEventId('p1'), undefined);
    cursors.save('p1', 'ev-1', 20);
    cursors.save('p1', 'ev-2', 30);
    cursors.save('p2', 'ev-9', 30);
    db.close();
    db = openDatabase(file);
    const reopened = new RelayCursorStore(db);
    assert.equal(reopened.lastEventId('p1'), 'ev-2');
    assert.equal(reopened.lastEventId('p2'), 'ev-9');
    assert.deepEqual(db.prepare('SELECT updated_at FROM relay_cursors WHERE provider_id = ?').get('p1'), {
      updated_at: 30,
    });
  });

  it('ignores a cursor for a provider deleted meanwhile, and its cursor goes with the provider', () => {
    const providers = new ProviderStore(db);
    saveProvider(providers, 'p1');
    const cursors = new RelayCursorStore(db);
    cursors.save('p1', 'ev-1', 20);
    providers.delete('p1', 25);
    assert.equal(cursors.lastEventId('p1'), undefined);
    assert.doesNotThrow(() => cursors.save('p1', 'ev-2', 30));
    assert.equal(cursors.lastEventId('p1'), undefined);
  });

  it('still reports a storage failure other than a deleted provider', () => {
    const cursors = new RelayCursorStore(db);
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON relay_cursors BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    );
    assert.throws(() => cursors.save('p1', 'ev-1', 20), /disk says no/);
  });
});
