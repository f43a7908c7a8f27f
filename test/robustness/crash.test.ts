import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from '../../src/store/sqlite.js';
import { startBroker } from '../support/broker-process.js';
import { assertAllPersisted, startLoad } from './support.js';

/**
 * Crash safety: kill -9 the real notifyd while 8 clients create notifications; every create it
 * acknowledged with 201 must be there, field for field, after a restart on the same HOME.
 */
describe('kill -9 under concurrent load', { timeout: 60_000 }, () => {
  it('keeps every acknowledged notification with its fields', async () => {
    const first = await startBroker();
    try {
      for (let round = 0; round < 2; round++) {
        const broker = round === 0 ? first : await startBroker({ home: first.home });
        const load = startLoad(broker, 8);
        await load.reached(100);
        await broker.kill(); // SIGKILL while the loops are still sending
        assert.equal(broker.child.signalCode, 'SIGKILL');
        await load.finished;

        const restarted = await startBroker({ home: first.home });
        try {
          await assertAllPersisted(restarted, load.acked);
          const ids = new Set(load.acked.map((ack) => ack.id));
          assert.equal(ids.size, load.acked.length, 'each acknowledged create has its own id');
        } finally {
          assert.equal(await restarted.stop(), 0);
        }
      }
      const db = new Database(first.home.databaseFile, { readonly: true });
      try {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      } finally {
        db.close();
      }
    } finally {
      first.home.cleanup();
    }
  });
});
