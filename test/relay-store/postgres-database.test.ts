/**
 * The relay's PostgreSQL connection (docs/relay.md "Many people"), in process on a throwaway cluster:
 * the documented limits, a database that drops connections, and what several processes writing at
 * once must not break. test/relay-store/store.test.ts runs the store's own cases on it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import { SCHEMA_VERSION, schemaVersion } from '../../src/relay-server/store-migrations.js';
import { RelayStore, type User } from '../../src/relay-server/store.js';
import { connectionsLeftTo, connectionsTo } from '../support/postgres-connections.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

let postgres: TestPostgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres.stop());

function operator(id: string, username: string): User {
  return { id, username, passwordHash: `hash-of-${id}`, isOperator: true, createdAt: 1_800_000_000_000 };
}

describe('the relay on PostgreSQL', () => {
  it('keeps to the documented limits: every statement has 10 seconds, and at most 10 connections', async () => {
    const url = postgres.createDatabase();
    const db = new PostgresDatabase(url);
    try {
      assert.equal((await db.get('SHOW statement_timeout'))!['statement_timeout'], '10s');
      // Busy with more statements at once than it keeps connections for.
      let most = 0;
      const sleeping = Array.from({ length: 14 }, () => db.get('SELECT pg_sleep(0.5)'));
      for (let look = 0; look < 5; look++) {
        most = Math.max(most, await connectionsTo(postgres, url));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await Promise.all(sleeping);
      assert.equal(most, 10);
    } finally {
      await db.close();
    }
  });

  it('a statement stuck past its time is cancelled and the next one runs', async () => {
    const db = new PostgresDatabase(postgres.createDatabase(), { poolSize: 2, statementTimeoutMs: 300 });
    try {
      await assert.rejects(db.get('SELECT pg_sleep(5)'), /canceling statement due to statement timeout/);
      assert.equal((await db.get('SELECT 1 AS one'))!['one'], 1);
    } finally {
      await db.close();
    }
  });

  it('connections the server dropped while idle (a restart, an idle timeout) neither stop the process nor the next statement', async () => {
    const url = postgres.createDatabase();
    const db = new PostgresDatabase(url);
    try {
      await Promise.all([db.get('SELECT 1'), db.get('SELECT 1'), db.get('SELECT 1')]);
      const name = new URL(url).pathname.slice(1);
      const admin = new PostgresDatabase(postgres.url);
      await admin.get('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?', [name]);
      await admin.close();
      // The pool hears of each dropped connection a moment later.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await db.get('SELECT 2 AS two'))!['two'], 2);
    } finally {
      await db.close();
    }
  });

  it('the setup links of two processes used at once make one operator', async () => {
    // Several rounds: the two must overlap, which a single try may miss.
    for (let round = 0; round < 5; round++) {
      const url = postgres.createDatabase();
      const [a, b] = await Promise.all([
        RelayStore.open(new PostgresDatabase(url)),
        RelayStore.open(new PostgresDatabase(url)),
      ]);
      try {
        const made = await Promise.all([
          a.insertUserIfFree(operator('u_ada', 'ada'), true),
          b.insertUserIfFree(operator('u_bob', 'bob'), true),
        ]);
        assert.equal(made.filter(Boolean).length, 1, `round ${round}: ${JSON.stringify(made)}`);
        assert.equal(await a.countUsers(), 1);
      } finally {
        await a.close();
        await b.close();
      }
    }
  });

  it('a migration that fails undoes all it did: once the cause is gone, the relay starts', async () => {
    const url = postgres.createDatabase();
    // Something in the way of the second migration (a table of that name made by hand).
    const db = new PostgresDatabase(url);
    await db.exec('CREATE TABLE relay_bus (note TEXT)');
    await assert.rejects(RelayStore.open(db), /relation "relay_bus" already exists/);
    assert.equal(await schemaVersion(db), 0);
    assert.equal((await db.get("SELECT to_regclass('users') AS users"))!['users'], null, 'no half schema');
    await db.exec('DROP TABLE relay_bus');
    const store = await RelayStore.open(db);
    assert.equal(await schemaVersion(db), SCHEMA_VERSION);
    await store.close();
    assert.equal(await connectionsLeftTo(postgres, url), 0, 'closing ends every connection');
  });
});
