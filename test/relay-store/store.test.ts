/**
 * The relay's store suite, the same cases against both databases: SQLite (relay.db in a temporary
 * folder) and PostgreSQL (a throwaway cluster, test/support/postgres.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import type { SqlDatabase } from '../../src/relay-server/sql-database.js';
import { SqliteDatabase } from '../../src/relay-server/sqlite-database.js';
import { SCHEMA_VERSION, schemaVersion } from '../../src/relay-server/store-migrations.js';
import { RelayStore, SESSION_IDLE_MS, type User } from '../../src/relay-server/store.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { deliveredQuestion } from '../support/relay-delivered.js';

const folder = mkdtempSync(join(tmpdir(), 'relay-store-'));
let postgres: TestPostgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => {
  postgres.stop();
  rmSync(folder, { recursive: true, force: true });
});

interface Backend {
  name: string;
  /** A new, empty database; `again` opens another connection to the last one. */
  fresh(): SqlDatabase;
  again(): SqlDatabase;
  /** Several relay processes share a PostgreSQL database; a SQLite file has one process. */
  manyProcesses: boolean;
}

let files = 0;
let lastFile = '';
let lastUrl = '';
const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    fresh: () => new SqliteDatabase((lastFile = join(folder, `relay-${++files}.db`))),
    again: () => new SqliteDatabase(lastFile),
    manyProcesses: false,
  },
  {
    name: 'PostgreSQL',
    fresh: () => new PostgresDatabase((lastUrl = postgres.createDatabase())),
    again: () => new PostgresDatabase(lastUrl),
    manyProcesses: true,
  },
];

const NOW = 1_800_000_000_000;

function person(id: string, username: string, isOperator = false): User {
  return { id, username, passwordHash: `hash-of-${id}`, isOperator, createdAt: NOW };
}

/** A store with Ada (operator) and Bob, and Ada's laptop installation i_1. */
async function populated(backend: Backend): Promise<RelayStore> {
  const store = await RelayStore.open(backend.fresh());
  await store.insertUser(person('u_ada', 'Ada', true));
  await store.insertUser(person('u_bob', 'bob'));
  await store.insertInstallation(
    { id: 'i_1', userId: 'u_ada', name: 'laptop', client: 'notify/1', createdAt: NOW },
    'credential-hash-1',
  );
  return store;
}

for (const backend of BACKENDS) {
  describe(`relay store on ${backend.name}`, () => {
    it('migrates a new database to the current version once; opening it again changes nothing', async () => {
      const db = backend.fresh();
      assert.equal(await schemaVersion(db), 0);
      const store = await RelayStore.open(db);
      assert.equal(await schemaVersion(db), SCHEMA_VERSION);
      await store.insertUser(person('u_ada', 'Ada', true));
      await store.close();
      const reopened = await RelayStore.open(backend.again());
      assert.equal(await schemaVersion(reopened.db), SCHEMA_VERSION);
      assert.deepEqual(
        (await reopened.users()).map((user) => user.username),
        ['Ada'],
      );
      await reopened.close();
    });

    it('several processes (PostgreSQL) opening a new database together migrate it once', async () => {
      const first = backend.fresh();
      const others = backend.manyProcesses ? [backend.again(), backend.again()] : [];
      const stores = await Promise.all([first, ...others].map((db) => RelayStore.open(db)));
      const versions = await first.all('SELECT version FROM relay_schema ORDER BY version');
      assert.deepEqual(
        versions.map((row) => row['version']),
        Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
      );
      for (const store of stores) await store.close();
    });

    it('finds people by name without case, the exact spelling first; a name taken in any case is refused', async () => {
      const store = await populated(backend);
      assert.equal((await store.userByName('ADA'))?.id, 'u_ada');
      assert.equal((await store.userByName('Bob'))?.id, 'u_bob');
      assert.equal(await store.insertUserIfFree(person('u_x', 'BOB'), false), false);
      assert.equal(await store.insertUserIfFree(person('u_op', 'Eve'), true), false, 'an operator exists');
      assert.equal(await store.insertUserIfFree(person('u_eve', 'Eve'), false), true);
      assert.equal(await store.countUsers(), 3);
      assert.deepEqual(await store.userNameCaseClashes(), []);
      await store.close();
    });

    it('keeps a session within its lifetime and idle limit, lists and ends it by its number', async () => {
      const store = await populated(backend);
      await store.insertSession('session-1', 'u_ada', NOW);
      await store.insertSession('session-2', 'u_ada', NOW + 1);
      assert.equal((await store.sessionUser('session-1', NOW + 1000))?.username, 'Ada');
      assert.equal(await store.sessionUser('session-1', NOW + SESSION_IDLE_MS + 1), undefined);
      const sessions = await store.people.sessionsOf('u_ada', NOW + 2000, NOW - 1);
      assert.deepEqual(
        sessions.map((session) => session.tokenHash),
        ['session-2', 'session-1'],
      );
      assert.equal(await store.people.deleteSession('u_bob', sessions[0]!.id), false, "not Bob's");
      assert.equal(await store.people.deleteSession('u_ada', sessions[0]!.id), true);
      assert.equal(await store.sessionUser('session-2', NOW + 2000), undefined);
      await store.close();
    });

    it('uses an invitation once, and withdraws one by its number', async () => {
      const store = await populated(backend);
      await store.insertInvite('invite-1', 'u_ada', NOW);
      await store.insertInvite('invite-2', 'u_ada', NOW + 1);
      assert.equal(await store.takeInvite('invite-1', NOW + 10), true);
      assert.equal(await store.takeInvite('invite-1', NOW + 10), false);
      const [open] = await store.people.openInvites(NOW + 10);
      assert.equal(await store.people.deleteInvite(open!.id), true);
      assert.equal(await store.isLiveInvite('invite-2', NOW + 10), false);
      await store.close();
    });

    it('decides a pairing once and finds an open one by its code', async () => {
      const store = await populated(backend);
      await store.insertPairing({
        id: 'p_1',
        secretHash: 'secret',
        userCode: 'ABCD-EFGH',
        senderName: 'laptop',
        client: null,
        createdAt: NOW,
        expiresAt: NOW + 600_000,
        intervalSeconds: 5,
        lastPollAt: null,
        state: 'pending',
        endedAt: null,
        approvedBy: null,
      });
      assert.equal((await store.openPairingByCode('ABCD-EFGH', NOW + 1))?.id, 'p_1');
      assert.equal(await store.approvePairing('p_1', 'u_ada'), true);
      assert.equal(await store.rejectPairing('p_1', 'u_bob', NOW), false);
      assert.equal((await store.pairing('p_1'))?.approvedBy, 'u_ada');
      assert.equal(await store.openPairingByCode('ABCD-EFGH', NOW + 1), undefined);
      await store.close();
    });

    it('stores, replaces and lists notifications; keeps room by dropping the oldest ended ones', async () => {
      const store = await populated(backend);
      const first = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
      const second = await store.insertNotification(
        'i_1',
        'n-2',
        deliveredQuestion('Second', 'resolved'),
        NOW + 1,
      );
      assert.ok(second.inboxId > first.inboxId);
      assert.deepEqual(await store.notification('i_1', 'n-1'), first);
      await store.replaceNotification({ ...first, title: 'First again', revision: 2 }, NOW + 5);
      await store.setAnswer(first.inboxId, 'yes', '2027-01-15T08:01:00.000Z', NOW + 6);
      const answered = await store.notificationOfUser(first.inboxId, 'u_ada');
      assert.equal(answered?.title, 'First again');
      assert.equal(answered?.answerAction, 'yes');
      assert.equal(answered?.status, 'resolved');
      assert.equal(await store.notificationOfUser(first.inboxId, 'u_bob'), undefined);
      const third = await store.insertNotification('i_1', 'n-3', deliveredQuestion('Third'), NOW + 7);
      assert.deepEqual(
        (await store.inbox('u_ada', 10)).map((item) => [item.title, item.installationName]),
        [
          ['Third', 'laptop'],
          ['Second', 'laptop'],
          ['First again', 'laptop'],
        ],
      );
      assert.equal(await store.makeRoom('i_1', 3), true);
      assert.equal(await store.notificationAt(second.inboxId), undefined, 'the one ended longest ago went');
      await store.setStatus(first.inboxId, 'active', NOW + 8);
      assert.equal(await store.makeRoom('i_1', 2), false, 'both left are active');
      assert.equal((await store.notificationAt(third.inboxId))?.title, 'Third');
      await store.close();
    });

    it('replays a request by its key, and hands out events in order after a given id', async () => {
      const store = await populated(backend);
      await store.insertReplay('i_1', 'key-1', { requestHash: 'h', status: 201, body: '{}' }, NOW);
      assert.deepEqual(await store.replay('i_1', 'key-1'), { requestHash: 'h', status: 201, body: '{}' });
      const ids = [];
      for (const type of ['answer', 'status', 'answer'])
        ids.push(await store.insertEvent('i_1', type, `{"type":"${type}"}`, NOW));
      assert.deepEqual(
        (await store.eventsAfter('i_1', ids[0]!)).map((event) => [event.id, event.type]),
        [
          [ids[1], 'status'],
          [ids[2], 'answer'],
        ],
      );
      await store.close();
    });

    it('revoking an installation deletes what it delivered; removing a person deletes theirs', async () => {
      const store = await populated(backend);
      const stored = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
      await store.insertEvent('i_1', 'answer', '{}', NOW);
      assert.equal(await store.deleteInstallation('i_1', 'u_bob'), false);
      assert.equal(await store.deleteInstallation('i_1', 'u_ada'), true);
      assert.equal(await store.notificationAt(stored.inboxId), undefined);
      assert.deepEqual(await store.eventsAfter('i_1', 0), []);
      await store.insertSession('session-bob', 'u_bob', NOW);
      assert.equal(await store.people.deleteUser('u_ada'), false, 'the operator stays');
      assert.equal(await store.people.deleteUser('u_bob'), true);
      assert.equal(await store.sessionUser('session-bob', NOW), undefined);
      await store.close();
    });

    it('a transaction that fails leaves nothing behind', async () => {
      const store = await populated(backend);
      await assert.rejects(
        store.transaction(async () => {
          await store.insertUser(person('u_carl', 'carl'));
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      assert.equal(await store.userByName('carl'), undefined);
      await store.close();
    });

    it('sends each queued push once when claimed together (by two processes on PostgreSQL); one given back is due again', async () => {
      const store = await populated(backend);
      const other = backend.manyProcesses ? await RelayStore.open(backend.again()) : store;
      for (let index = 0; index < 20; index++) {
        await store.push.insertDevice(
          `d_${index}`,
          'u_ada',
          { endpoint: `https://push.example/${index}`, p256dh: 'key', auth: 'auth', name: `phone ${index}` },
          'https://relay.example',
          NOW,
        );
      }
      const stored = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
      assert.equal(await store.push.enqueueForUser('u_ada', stored.inboxId, NOW), 20);
      const claims = await Promise.all(
        [store, other, store, other].map((claimer) => claimer.push.claimDue(NOW, 6)),
      );
      const ids = claims.flat().map((job) => job.id);
      assert.equal(ids.length, 20);
      assert.equal(new Set(ids).size, 20, 'no push claimed twice');
      assert.deepEqual(await store.push.claimDue(NOW + 1000, 50), [], 'claimed ones are not due');
      const given = claims[0]![0]!;
      await store.push.release(given.id, NOW + 1000);
      assert.deepEqual(
        (await other.push.claimDue(NOW + 1000, 50)).map((job) => job.id),
        [given.id],
      );
      if (other !== store) await other.close();
      await store.close();
    });

    it('keeps one VAPID key pair and uses an answer token once', async () => {
      const store = await populated(backend);
      const kept = await store.push.keepVapidKeys({ publicKey: 'public-1', privateKey: 'private-1' }, NOW);
      const again = await store.push.keepVapidKeys({ publicKey: 'public-2', privateKey: 'private-2' }, NOW);
      assert.deepEqual(again, kept);
      const stored = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
      await store.push.insertToken('token-1', stored.inboxId, 1, 1, NOW);
      assert.equal(await store.push.useToken('token-1', NOW), true);
      assert.equal(await store.push.useToken('token-1', NOW), false);
      assert.equal((await store.push.token('token-1'))?.usedAt, NOW);
      await store.close();
    });

    it('purges what is past its retention', async () => {
      const store = await populated(backend);
      await store.insertSession('old', 'u_ada', NOW);
      const stored = await store.insertNotification('i_1', 'n-1', deliveredQuestion('First'), NOW);
      await store.purge(NOW + 31 * 24 * 3_600_000, 3_600_000);
      assert.equal(await store.sessionUser('old', NOW + 1), undefined);
      assert.equal(await store.notificationAt(stored.inboxId), undefined);
      await store.close();
    });
  });
}
