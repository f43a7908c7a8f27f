/**
 * Upgrading notify-relay over an existing relay.db: whatever schema the file was left at, the relay opens
 * it at the current version with every person, session and notification kept, so nobody is signed out
 * and no inbox empties. Each case writes the older file with better-sqlite3, as that release left it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from './open-database.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from './store-migrations.js';
import { RelayStore, SESSION_IDLE_MS } from './store.js';

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** The tables of the first relay release: no session use time, no receipt time, no phone push. */
const FIRST_RELEASE = `
CREATE TABLE users (
  id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
  is_operator INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE invites (
  token_hash TEXT PRIMARY KEY, created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE pairings (
  id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, user_code TEXT NOT NULL, sender_name TEXT NOT NULL,
  client TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, interval_seconds INTEGER NOT NULL,
  last_poll_at INTEGER, state TEXT NOT NULL, ended_at INTEGER, approved_by TEXT);
CREATE TABLE installations (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL,
  client TEXT, credential_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL);
CREATE TABLE notifications (
  inbox_id INTEGER PRIMARY KEY AUTOINCREMENT,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  notification_id TEXT NOT NULL, lifecycle INTEGER NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL,
  type TEXT NOT NULL, priority TEXT NOT NULL, agent TEXT NOT NULL, project TEXT, status TEXT NOT NULL,
  actions TEXT NOT NULL, answer_action TEXT, answered_at TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, changed_at INTEGER NOT NULL,
  UNIQUE (installation_id, notification_id));
CREATE TABLE idempotency (
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE, key TEXT NOT NULL,
  request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (installation_id, key));
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL);
`;

/** What the release just before numbered migrations added: every column and push table, no relay_schema. */
const BEFORE_NUMBERED = `
ALTER TABLE sessions ADD COLUMN last_used_at INTEGER;
ALTER TABLE notifications ADD COLUMN received_at INTEGER;
ALTER TABLE notifications ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
ALTER TABLE notifications ADD COLUMN sender_revision INTEGER;
ALTER TABLE users ADD COLUMN push_privacy TEXT NOT NULL DEFAULT 'full';
ALTER TABLE notifications ADD COLUMN message_included INTEGER NOT NULL DEFAULT 1;
CREATE TABLE push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE, p256dh TEXT NOT NULL, auth TEXT NOT NULL, name TEXT NOT NULL,
  origin TEXT NOT NULL, created_at INTEGER NOT NULL, last_delivery_at INTEGER, last_failure_at INTEGER,
  last_failure TEXT);
CREATE TABLE push_queue (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  inbox_id INTEGER REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 1, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, shortened INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
  UNIQUE (subscription_id, inbox_id));
CREATE TABLE push_tokens (
  token_hash TEXT PRIMARY KEY,
  inbox_id INTEGER NOT NULL REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  lifecycle INTEGER NOT NULL, revision INTEGER NOT NULL, used_at INTEGER, created_at INTEGER NOT NULL);
`;

/** Ada, her laptop, a session she signed in with at T0 and a notification it delivered at T0 + 1 h. */
const ROWS = `
INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES ('u_ada', 'ada', 'h', 1, ${T0});
INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
  VALUES ('session-ada', 'u_ada', ${T0}, ${T0 + 7 * 24 * HOUR});
INSERT INTO installations (id, user_id, name, client, credential_hash, created_at)
  VALUES ('i_1', 'u_ada', 'laptop', 'notify/0.1', 'credential-hash', ${T0});
INSERT INTO notifications (installation_id, notification_id, lifecycle, title, message, type, priority, agent,
  project, status, actions, created_at, updated_at, changed_at)
  VALUES ('i_1', 'n-1', 1, 'Allow Bash?', 'rm -rf build', 'permission', 'high', 'claude', 'notify', 'active',
  '[{"id":"allow","label":"Allow"}]', '2027-01-15T08:00:00.000Z', '2027-01-15T08:00:00.000Z', ${T0 + HOUR});
`;

/** A data folder whose relay.db holds what `sql` writes, as an older notify-relay left it. */
function olderRelayDb(sql: string): string {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-migrate-'));
  roots.push(root);
  const data = join(root, 'data');
  mkdirSync(data);
  const raw = new Database(join(data, 'relay.db'));
  raw.exec(sql);
  raw.close();
  return data;
}

async function tableExists(store: RelayStore, name: string): Promise<boolean> {
  return (
    (await store.db.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name])) !==
    undefined
  );
}

describe('relay.db from an older notify-relay', () => {
  it('from the first release: every migration applied, Ada still signed in, her inbox and settings as they were', async () => {
    const data = olderRelayDb(FIRST_RELEASE + ROWS);
    const db = openDatabase({ data });
    assert.equal(await schemaVersion(db), 0);
    assert.deepEqual(
      await migrate(db),
      Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
    );
    const store = await RelayStore.open(db);
    assert.equal(await schemaVersion(db), SCHEMA_VERSION);

    assert.equal((await store.userByName('ada'))?.id, 'u_ada');
    // Her session counts as last used when it was made: good within the idle limit from then, not after it.
    assert.equal(await store.sessionUser('session-ada', T0 + SESSION_IDLE_MS + HOUR), undefined);
    assert.equal((await store.sessionUser('session-ada', T0 + HOUR))?.id, 'u_ada');

    const inbox = await store.inbox('u_ada', 10);
    assert.equal(inbox.length, 1);
    const [item] = inbox;
    assert.equal(item?.title, 'Allow Bash?');
    assert.equal(item?.receivedAt, T0 + HOUR, 'received when it last changed');
    assert.equal(item?.revision, 1);
    assert.equal(item?.senderRevision, null);
    assert.equal(item?.messageIncluded, true, 'a phone push shows its message');
    assert.equal(await store.push.privacy('u_ada'), 'full');
    assert.deepEqual(await store.push.devicesOf('u_ada'), []);
    assert.equal(await tableExists(store, 'push_tokens'), true);
    assert.equal(await tableExists(store, 'relay_bus'), true);
    await store.close();
  });

  it('from just before numbered migrations: opened as it is, no value overwritten', async () => {
    const data = olderRelayDb(
      `${FIRST_RELEASE}${BEFORE_NUMBERED}${ROWS}
       UPDATE sessions SET last_used_at = ${T0 + 3 * HOUR};
       UPDATE notifications SET received_at = ${T0 + 2 * HOUR}, revision = 4, sender_revision = 9, message_included = 0;
       UPDATE users SET push_privacy = 'private';`,
    );
    const db = openDatabase({ data });
    assert.deepEqual(
      await migrate(db),
      Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
    );
    const store = await RelayStore.open(db);
    // Last used at T0 + 3 h, not at its creation: still signed in 12 h after creation.
    assert.equal((await store.sessionUser('session-ada', T0 + SESSION_IDLE_MS + HOUR))?.id, 'u_ada');
    const item = await store.notificationAt(1);
    assert.equal(item?.receivedAt, T0 + 2 * HOUR);
    assert.equal(item?.revision, 4);
    assert.equal(item?.senderRevision, 9);
    assert.equal(item?.messageIncluded, false);
    assert.equal(await store.push.privacy('u_ada'), 'private');
    await store.close();
  });

  it('at version 1: only the later migrations are applied; opened again, none', async () => {
    const data = olderRelayDb(
      `${FIRST_RELEASE}${BEFORE_NUMBERED}${ROWS}
       CREATE TABLE relay_schema (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL);
       INSERT INTO relay_schema (version, applied_at) VALUES (1, ${T0});`,
    );
    const db = openDatabase({ data });
    assert.equal(await schemaVersion(db), 1);
    assert.deepEqual(
      await migrate(db),
      Array.from({ length: SCHEMA_VERSION - 1 }, (_, index) => index + 2),
    );
    assert.deepEqual(await migrate(db), []);
    const store = await RelayStore.open(db);
    assert.equal(await tableExists(store, 'relay_bus'), true);
    assert.equal((await store.notificationAt(1))?.title, 'Allow Bash?');
    await store.close();
  });

  it('from a newer notify-relay: refused, nothing applied or removed, and its version is reported as it is', async () => {
    const newer = SCHEMA_VERSION + 1;
    const data = olderRelayDb(
      `${FIRST_RELEASE}${BEFORE_NUMBERED}${ROWS}
       CREATE TABLE relay_schema (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL);
       INSERT INTO relay_schema (version, applied_at) VALUES (1, ${T0}), (2, ${T0}), (${newer}, ${T0});`,
    );
    const db = openDatabase({ data });
    const refusal = {
      name: 'NewerSchemaError',
      message: `its schema is version ${newer}, newer than this notify-relay understands (${SCHEMA_VERSION}); upgrade notify-relay, or use the release that wrote it`,
    };
    await assert.rejects(migrate(db), refusal);
    await assert.rejects(RelayStore.open(db), refusal, 'the relay does not start on it');
    assert.equal(await schemaVersion(db), newer);
    assert.equal((await db.get('SELECT count(*) AS n FROM relay_schema'))?.['n'], 3, 'no version added');
    await db.close();
  });

  it('a migration that fails leaves relay.db exactly as it was, to be tried again by a fixed relay', async () => {
    // A damaged file: its notifications table lost the column the receipt time is filled from.
    const data = olderRelayDb(FIRST_RELEASE.replace(', changed_at INTEGER NOT NULL', ''));
    const db = openDatabase({ data });
    await assert.rejects(migrate(db), /changed_at/);
    assert.equal(await schemaVersion(db), 0, 'no version recorded');
    const sessionColumns = (await db.all('PRAGMA table_info(sessions)')).map((row) => row['name']);
    assert.ok(!sessionColumns.includes('last_used_at'), 'the first steps were rolled back too');
    await db.close();
  });
});
