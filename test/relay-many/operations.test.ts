/**
 * Running a relay for many people (docs/relay.md "Many people"): `notify-relay migrate`, moving a
 * SQLite relay to PostgreSQL with `export | import`, and a graceful stop that sends streams elsewhere.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import type { SqlDatabase } from '../../src/relay-server/sql-database.js';
import { SqliteDatabase } from '../../src/relay-server/sqlite-database.js';
import { columnsOf, RELAY_TABLES } from '../../src/relay-server/transfer-command.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { NOTIFY_RELAY, startRelay } from '../support/relay-process.js';
import { deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';

let postgres: TestPostgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres.stop());

function relayCommand(args: string[], input?: string) {
  return spawnSync(process.execPath, [NOTIFY_RELAY, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] },
    ...(input !== undefined && { input }),
  });
}

/** Every row of a table, the columns both databases have, in a fixed order. */
async function rowsOf(db: SqlDatabase, table: string, columns: string[]): Promise<unknown[]> {
  return db.all(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${columns.join(', ')}`);
}

describe('notify-relay migrate', () => {
  it('--check says what is missing (exit 1) until migrate applies it; then it is current (exit 0)', () => {
    const url = postgres.createDatabase();
    const before = relayCommand(['migrate', '--check', '--database', url]);
    assert.equal(before.status, 1, before.stderr);
    assert.match(before.stdout, /schema version 0, 2 migration\(s\) to apply/);
    const applied = relayCommand(['migrate', '--database', url]);
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(applied.stdout, /applied migration\(s\) 1, 2; schema version 2\./);
    const after = relayCommand(['migrate', '--check'].concat(['--database', url]));
    assert.equal(after.status, 0, after.stderr);
    assert.match(after.stdout, /schema version 2, current\./);
  });
});

describe('notify-relay export | notify-relay import --database', () => {
  it('moves a populated SQLite relay to PostgreSQL with every table the same', async () => {
    const relay = await startRelay();
    const web = await setUpOperator(relay);
    const { credential } = await pairSender(relay, web);
    for (const id of ['n-1', 'n-2', 'n-3'])
      assert.equal((await deliver(relay, credential, id, delivered())).status, 201);
    const listed = await web.inbox('GET', '/v1/inbox/notifications');
    const item = (listed.body['notifications'] as Record<string, unknown>[])[0]!;
    const answered = await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/answer`, {
      action: 'allow',
      lifecycle: 1,
      revision: 1,
    });
    assert.equal(answered.status, 200);
    await web.post('/people/invite', {});
    await relay.stop();
    try {
      const exported = relayCommand(['export', '--data', relay.dataDir]);
      assert.equal(exported.status, 0, exported.stderr);
      const url = postgres.createDatabase();
      const imported = relayCommand(['import', '--database', url], exported.stdout);
      assert.equal(imported.status, 0, imported.stderr);
      assert.match(
        imported.stderr,
        /1 users, 1 sessions, 1 invites, 1 pairings, 1 installations, 3 notifications/,
      );
      const sqlite = new SqliteDatabase(join(relay.dataDir, 'relay.db'));
      const pg = new PostgresDatabase(url);
      try {
        for (const table of RELAY_TABLES) {
          const columns = (await columnsOf(sqlite, table)).filter(
            (name) => !((table === 'sessions' || table === 'invites') && name === 'id'),
          );
          const rows = await rowsOf(sqlite, table, columns);
          assert.deepEqual(await rowsOf(pg, table, columns), rows, table);
        }
        assert.ok((await sqlite.all('SELECT * FROM events')).length > 0, 'the answer event moved too');
        // New rows continue after the imported ones.
        const next = await pg.get(
          "INSERT INTO events (installation_id, type, data, created_at) SELECT id, 'status', '{}', 0 FROM installations RETURNING id",
        );
        const highest = await sqlite.get('SELECT MAX(id) AS id FROM events');
        assert.ok((next!['id'] as number) > (highest!['id'] as number));
      } finally {
        await sqlite.close();
        await pg.close();
      }
      const again = relayCommand(['import', '--database', url], exported.stdout);
      assert.equal(again.status, 1);
      assert.match(again.stderr, /the database is not empty; import into a new one/);
    } finally {
      await relay.cleanup();
    }
  });
});

describe('a graceful stop', () => {
  it('SIGTERM closes a live stream with a hint to reconnect, and the relay exits 0', async () => {
    const relay = await startRelay({ env: { NOTIFY_RELAY_DATABASE: postgres.createDatabase() } });
    try {
      const web = await setUpOperator(relay);
      const { credential } = await pairSender(relay, web);
      const laptop = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
      await laptop.until((reader) => reader.text.startsWith('retry: 5000'));
      assert.equal(await relay.stop(), 0);
      await laptop.ended;
      assert.match(laptop.text, /\nretry: 1000\n\n$/);
    } finally {
      await relay.cleanup();
    }
  });
});
