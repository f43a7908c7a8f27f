/**
 * `notify-relay export | notify-relay import` in process (docs/relay.md "Many people"): a relay moved
 * between a relay.db and PostgreSQL keeps every row and keeps working, and an import that cannot finish
 * leaves nothing behind. (test/relay-many/operations.test.ts runs the commands as processes.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { connectionsLeftTo } from '../../test/support/postgres-connections.js';
import { caughtText, lineSink } from '../../test/support/caught-output.js';
import type { Target } from './args.js';
import { openDatabase } from './open-database.js';
import type { SqlDatabase } from './sql-database.js';
import { RelayStore } from './store.js';
import { columnsOf, RELAY_TABLES, runExport, runImport } from './transfer-command.js';
import { deliveredQuestion } from '../../test/support/relay-delivered.js';

const NOW = 1_800_000_000_000;
let postgres: TestPostgres;
const folder = mkdtempSync(join(tmpdir(), 'notify-relay-transfer-'));
let folders = 0;
before(async () => {
  postgres = await startPostgres();
});
after(() => {
  postgres.stop();
  rmSync(folder, { recursive: true, force: true });
});

const newSqlite = (): { data: string } => ({ data: join(folder, `data-${++folders}`) });
const newPostgres = (): { database: string } => ({ database: postgres.createDatabase() });

/** A relay in use: two people, their sessions, an invitation, a paired laptop, answers, a phone. */
async function populate(target: Target): Promise<void> {
  const store = await RelayStore.open(openDatabase(target));
  try {
    const person = (id: string, username: string, isOperator: boolean) =>
      store.insertUser({ id, username, passwordHash: `hash-${id}`, isOperator, createdAt: NOW });
    await person('u_ada', 'Ada', true);
    await person('u_bob', 'bob', false);
    await store.insertSession('session-ada', 'u_ada', NOW);
    await store.insertSession('session-bob', 'u_bob', NOW + 1);
    await store.insertInvite('invite-1', 'u_ada', NOW);
    await store.insertPairing({
      id: 'p_1',
      secretHash: 'secret',
      userCode: 'ABCD-EFGH',
      senderName: 'laptop',
      client: 'notify/1',
      createdAt: NOW,
      expiresAt: NOW + 600_000,
      intervalSeconds: 5,
      lastPollAt: null,
      state: 'pending',
      endedAt: null,
      approvedBy: null,
    });
    await store.insertInstallation(
      { id: 'i_1', userId: 'u_ada', name: 'laptop', client: 'notify/1', createdAt: NOW },
      'credential-hash',
    );
    const first = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
    await store.insertNotification('i_1', 'n-2', deliveredQuestion('Second'), NOW + 1);
    await store.insertReplay('i_1', 'key-1', { requestHash: 'h', status: 201, body: '{}' }, NOW);
    await store.insertEvent('i_1', 'answer', '{"action":"yes"}', NOW);
    await store.insertEvent('i_1', 'status', '{}', NOW + 1);
    await store.push.keepVapidKeys({ publicKey: 'public', privateKey: 'private' }, NOW);
    await store.push.insertDevice(
      'd_1',
      'u_ada',
      { endpoint: 'https://push.example/1', p256dh: 'key', auth: 'auth', name: 'phone' },
      'https://relay.example',
      NOW,
    );
    await store.push.enqueueForUser('u_ada', first.inboxId, NOW);
    await store.push.insertToken('token-1', first.inboxId, 1, 1, NOW);
  } finally {
    await store.close();
  }
}

/** What the commands told the operator (their stderr), line by line. */
const told: string[] = [];

async function exported(target: Target): Promise<string> {
  const output = caughtText();
  assert.equal(await runExport(target, { stdout: output.stream, stderr: lineSink(told) }), 0);
  return output.text();
}

/** Every table's rows in a fixed order, without the numbers a database gives sessions and invitations. */
async function contents(target: Target): Promise<Record<string, unknown[]>> {
  const db = openDatabase(target);
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of RELAY_TABLES) {
      const columns = (await columnsOf(db, table)).filter(
        (name) => !((table === 'sessions' || table === 'invites') && name === 'id'),
      );
      tables[table] = await db.all(
        `SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${columns.join(', ')}`,
      );
    }
    return tables;
  } finally {
    await db.close();
  }
}

async function highest(db: SqlDatabase, table: string, column: string): Promise<number> {
  return (await db.get(`SELECT MAX(${column}) AS n FROM ${table}`))!['n'] as number;
}

describe('notify-relay export | notify-relay import', () => {
  beforeEach(() => {
    told.length = 0;
  });

  it('moves a relay.db to PostgreSQL row for row, says what it moved, and the moved relay numbers new rows after the old ones', async () => {
    const sqlite = newSqlite();
    await populate(sqlite);
    const pg = newPostgres();
    assert.equal(
      await runImport(pg, { stdin: Readable.from(await exported(sqlite)), stderr: lineSink(told) }),
      0,
    );
    assert.deepEqual(told, [
      `notify-relay import into ${pg.database}: 2 users, 2 sessions, 1 invites, 1 pairings, 1 installations, ` +
        '2 notifications, 1 idempotency, 2 events, 1 push_keys, 1 push_subscriptions, 1 push_queue, 1 push_tokens.',
    ]);
    assert.deepEqual(await contents(pg), await contents(sqlite));
    assert.equal(await connectionsLeftTo(postgres, pg.database), 0, 'the command leaves no connection open');

    // The relay, started on the new database, goes on: new deliveries, answers, pushes, sign-ins.
    const store = await RelayStore.open(openDatabase(pg));
    try {
      const db = store.db;
      const before = {
        inbox: await highest(db, 'notifications', 'inbox_id'),
        event: await highest(db, 'events', 'id'),
        push: await highest(db, 'push_queue', 'id'),
      };
      const third = await store.insertNotification('i_1', 'n-3', deliveredQuestion('Third'), NOW + 5);
      assert.ok(third.inboxId > before.inbox);
      assert.ok((await store.insertEvent('i_1', 'answer', '{}', NOW + 5)) > before.event);
      assert.equal(await store.push.enqueueForUser('u_ada', third.inboxId, NOW + 5), 1);
      assert.ok((await highest(db, 'push_queue', 'id')) > before.push);
      await store.insertSession('session-ada-again', 'u_ada', NOW + 5);
      await store.insertInvite('invite-2', 'u_ada', NOW + 5);
      const sessions = await store.people.sessionsOf('u_ada', NOW + 6, NOW - 1);
      assert.equal(new Set(sessions.map((session) => session.id)).size, 2, 'each session its own number');
    } finally {
      await store.close();
    }
  });

  it('moves a PostgreSQL relay on to another PostgreSQL and back to a relay.db, and each goes on signing people in', async () => {
    const sqlite = newSqlite();
    await populate(sqlite);
    const pg = newPostgres();
    assert.equal(
      await runImport(pg, { stdin: Readable.from(await exported(sqlite)), stderr: lineSink(told) }),
      0,
    );
    const text = await exported(pg);
    assert.equal(await connectionsLeftTo(postgres, pg.database), 0, 'the export leaves no connection open');
    for (const target of [newPostgres(), newSqlite()]) {
      assert.equal(await runImport(target, { stdin: Readable.from(text), stderr: lineSink(told) }), 0);
      assert.deepEqual(await contents(target), await contents(sqlite));
      const store = await RelayStore.open(openDatabase(target));
      try {
        await store.insertSession('session-new', 'u_bob', NOW + 5);
        await store.insertInvite('invite-new', 'u_ada', NOW + 5);
        assert.equal((await store.sessionUser('session-new', NOW + 6))?.username, 'bob');
      } finally {
        await store.close();
      }
    }
  });

  it('refuses to import into a relay that has accounts (exit 1), changing nothing', async () => {
    const sqlite = newSqlite();
    await populate(sqlite);
    const text = await exported(sqlite);
    assert.equal(await runImport(sqlite, { stdin: Readable.from(text), stderr: lineSink(told) }), 1);
    assert.deepEqual(told, [
      `notify-relay import into ${join(sqlite.data, 'relay.db')} failed, nothing imported: the database is not empty; import into a new one`,
    ]);
    assert.equal((await contents(sqlite))['users']!.length, 2);
  });

  it('a damaged export (a line naming no table of the relay) is refused by its line number; nothing of it stays', async () => {
    const sqlite = newSqlite();
    await populate(sqlite);
    const lines = (await exported(sqlite)).split('\n');
    // A blank line (a file edited by hand leaves spaces on it) is skipped, and still counted.
    const damaged = [lines[0], '  ', lines[1], '{"table":"user","row":{}}', ...lines.slice(2)].join('\n');
    const pg = newPostgres();
    assert.equal(await runImport(pg, { stdin: Readable.from(damaged), stderr: lineSink(told) }), 1);
    assert.deepEqual(told, [
      `notify-relay import into ${pg.database} failed, nothing imported: line 4: unknown table "user"`,
    ]);
    assert.deepEqual((await contents(pg))['users'], []);
    assert.equal(
      await connectionsLeftTo(postgres, pg.database),
      0,
      'a failed import leaves no connection open',
    );
    assert.equal(
      await runImport(pg, { stdin: Readable.from(lines.join('\n')), stderr: lineSink(told) }),
      0,
      'the whole export imports after',
    );
  });

  it('a database it cannot reach is named without its password (exit 1)', async () => {
    const where = `postgres://postgres@127.0.0.1:${postgres.port}/missing`;
    const withPassword = `postgres://postgres:s3cret@127.0.0.1:${postgres.port}/missing`;
    assert.equal(
      await runExport({ database: withPassword }, { stdout: caughtText().stream, stderr: lineSink(told) }),
      1,
    );
    assert.deepEqual(told, [`notify-relay export failed on ${where}: database "missing" does not exist`]);
  });
});
