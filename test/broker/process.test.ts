import Database from '../../src/store/sqlite.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDatabase } from '../../src/store/database.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import { createTempHome, startBroker } from '../support/broker-process.js';

const DAY = 24 * 60 * 60 * 1000;

describe('the notifyd process', () => {
  it('stops cleanly with exit code 0 on SIGINT (Ctrl+C), keeping what it stored', async () => {
    const home = createTempHome();
    const broker = await startBroker({ home });
    const created = (await (
      await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' })
    ).json()) as {
      id: string;
    };
    broker.child.kill('SIGINT');
    const code = await new Promise((resolve) => broker.child.once('exit', resolve));
    assert.equal(code, 0);
    const db = new Database(home.databaseFile, { readonly: true });
    assert.ok(db.prepare('SELECT 1 FROM notifications WHERE id = ?').get(created.id));
    db.close();
    home.cleanup();
  });

  it('keeps its database in WAL mode with the schema migrated', async () => {
    const broker = await startBroker();
    try {
      const db = new Database(broker.home.databaseFile, { readonly: true });
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.ok((db.pragma('user_version', { simple: true }) as number) >= 1);
      db.close();
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('prunes dismissed and resolved notifications past retentionDays when it starts, keeping active ones', async () => {
    const home = createTempHome();
    const seed = openDatabase(home.databaseFile);
    const store = new NotificationStore(seed);
    const old = Date.now() - 40 * DAY;
    const draft = { agent: 'seed', type: 'info', priority: 'normal', title: 't', message: 'm' } as const;
    store.upsert('old-active', draft, old);
    store.upsert('old-resolved', draft, old);
    store.setStatus('old-resolved', 'resolved', old);
    store.upsert('recent-resolved', draft, old);
    store.setStatus('recent-resolved', 'resolved', Date.now() - 2 * DAY);
    seed.close();

    const broker = await startBroker({ home, config: { retentionDays: 30 } });
    try {
      const status = async (id: string) => (await broker.request('GET', `/v1/notifications/${id}`)).status;
      assert.equal(await status('old-active'), 200);
      assert.equal(await status('recent-resolved'), 200);
      assert.equal(await status('old-resolved'), 404);
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
