/**
 * The relay's schema, as numbered migrations for each database. Each runs in a transaction; the
 * versions applied are kept in relay_schema; on PostgreSQL one process at a time migrates.
 */
import type { SqlDatabase } from './sql-database.js';

interface Migration {
  sqlite: (db: SqlDatabase) => Promise<void>;
  postgres: string;
}

const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
  is_operator INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, last_used_at INTEGER);
CREATE TABLE IF NOT EXISTS invites (
  token_hash TEXT PRIMARY KEY, created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
  id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, user_code TEXT NOT NULL, sender_name TEXT NOT NULL,
  client TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, interval_seconds INTEGER NOT NULL,
  last_poll_at INTEGER, state TEXT NOT NULL, ended_at INTEGER, approved_by TEXT);
CREATE INDEX IF NOT EXISTS pairings_by_code ON pairings (user_code);
CREATE TABLE IF NOT EXISTS installations (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL,
  client TEXT, credential_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS notifications (
  inbox_id INTEGER PRIMARY KEY AUTOINCREMENT,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  notification_id TEXT NOT NULL, lifecycle INTEGER NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL,
  type TEXT NOT NULL, priority TEXT NOT NULL, agent TEXT NOT NULL, project TEXT, status TEXT NOT NULL,
  actions TEXT NOT NULL, answer_action TEXT, answered_at TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, changed_at INTEGER NOT NULL, received_at INTEGER,
  UNIQUE (installation_id, notification_id));
CREATE TABLE IF NOT EXISTS idempotency (
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE, key TEXT NOT NULL,
  request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL,
  PRIMARY KEY (installation_id, key));
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_installation ON events (installation_id, id);
`;

const SQLITE_PUSH_SCHEMA = `
CREATE TABLE IF NOT EXISTS push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS push_subscriptions (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE, p256dh TEXT NOT NULL, auth TEXT NOT NULL, name TEXT NOT NULL,
  origin TEXT NOT NULL, created_at INTEGER NOT NULL, last_delivery_at INTEGER, last_failure_at INTEGER,
  last_failure TEXT);
CREATE INDEX IF NOT EXISTS push_subscriptions_by_user ON push_subscriptions (user_id);
CREATE TABLE IF NOT EXISTS push_queue (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  inbox_id INTEGER REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 1, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL, shortened INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
  UNIQUE (subscription_id, inbox_id));
CREATE INDEX IF NOT EXISTS push_queue_due ON push_queue (next_attempt_at);
CREATE TABLE IF NOT EXISTS push_tokens (
  token_hash TEXT PRIMARY KEY,
  inbox_id INTEGER NOT NULL REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  lifecycle INTEGER NOT NULL, revision INTEGER NOT NULL, used_at INTEGER, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS push_tokens_by_inbox ON push_tokens (inbox_id);
`;

async function hasColumn(db: SqlDatabase, table: string, column: string): Promise<boolean> {
  return (await db.all(`PRAGMA table_info(${table})`)).some((row) => row['name'] === column);
}

/**
 * Version 1 is everything up to the first PostgreSQL release. A relay.db from before numbered
 * migrations gains what it lacks, its columns filled from what it has.
 */
async function sqliteVersion1(db: SqlDatabase): Promise<void> {
  await db.exec(SQLITE_SCHEMA);
  if (!(await hasColumn(db, 'sessions', 'last_used_at'))) {
    await db.exec('ALTER TABLE sessions ADD COLUMN last_used_at INTEGER');
    await db.exec('UPDATE sessions SET last_used_at = created_at');
  }
  if (!(await hasColumn(db, 'notifications', 'received_at'))) {
    await db.exec('ALTER TABLE notifications ADD COLUMN received_at INTEGER');
    await db.exec('UPDATE notifications SET received_at = changed_at');
  }
  // What an inbox answer names (the relay's own revision) and what its event carries back (the sender's).
  if (!(await hasColumn(db, 'notifications', 'revision')))
    await db.exec('ALTER TABLE notifications ADD COLUMN revision INTEGER NOT NULL DEFAULT 1');
  if (!(await hasColumn(db, 'notifications', 'sender_revision')))
    await db.exec('ALTER TABLE notifications ADD COLUMN sender_revision INTEGER');
  // Phone push (docs/relay.md "Phone push"): the VAPID key pair, each person's devices, the durable
  // queue of pushes still to send, and the hashed single-use answer tokens the pushes carry.
  await db.exec(SQLITE_PUSH_SCHEMA);
  if (!(await hasColumn(db, 'users', 'push_privacy')))
    await db.exec("ALTER TABLE users ADD COLUMN push_privacy TEXT NOT NULL DEFAULT 'full'");
  // 0: the sender's route keeps the message on the laptop (title only), so a push shows no body.
  if (!(await hasColumn(db, 'notifications', 'message_included')))
    await db.exec('ALTER TABLE notifications ADD COLUMN message_included INTEGER NOT NULL DEFAULT 1');
}

/** Version 1 on PostgreSQL: times in milliseconds are BIGINT; sessions and invites get the id SQLite's rowid gives. */
const POSTGRES_VERSION_1 = `
CREATE TABLE users (
  id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
  is_operator INTEGER NOT NULL, created_at BIGINT NOT NULL, push_privacy TEXT NOT NULL DEFAULT 'full');
CREATE UNIQUE INDEX users_by_name_nocase ON users (lower(username));
CREATE TABLE sessions (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, last_used_at BIGINT);
CREATE TABLE invites (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  token_hash TEXT PRIMARY KEY, created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE pairings (
  id TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, user_code TEXT NOT NULL, sender_name TEXT NOT NULL,
  client TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, interval_seconds INTEGER NOT NULL,
  last_poll_at BIGINT, state TEXT NOT NULL, ended_at BIGINT, approved_by TEXT);
CREATE INDEX pairings_by_code ON pairings (user_code);
CREATE TABLE installations (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL,
  client TEXT, credential_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL);
CREATE TABLE notifications (
  inbox_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  notification_id TEXT NOT NULL, lifecycle INTEGER NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL,
  type TEXT NOT NULL, priority TEXT NOT NULL, agent TEXT NOT NULL, project TEXT, status TEXT NOT NULL,
  actions TEXT NOT NULL, answer_action TEXT, answered_at TEXT, created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL, changed_at BIGINT NOT NULL, received_at BIGINT,
  revision INTEGER NOT NULL DEFAULT 1, sender_revision INTEGER, message_included INTEGER NOT NULL DEFAULT 1,
  UNIQUE (installation_id, notification_id));
CREATE TABLE idempotency (
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE, key TEXT NOT NULL,
  request_hash TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL,
  PRIMARY KEY (installation_id, key));
CREATE TABLE events (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  installation_id TEXT NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
  type TEXT NOT NULL, data TEXT NOT NULL, created_at BIGINT NOT NULL);
CREATE INDEX events_by_installation ON events (installation_id, id);
CREATE TABLE push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL,
  created_at BIGINT NOT NULL);
CREATE TABLE push_subscriptions (
  id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint TEXT NOT NULL UNIQUE, p256dh TEXT NOT NULL, auth TEXT NOT NULL, name TEXT NOT NULL,
  origin TEXT NOT NULL, created_at BIGINT NOT NULL, last_delivery_at BIGINT, last_failure_at BIGINT,
  last_failure TEXT);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);
CREATE TABLE push_queue (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  inbox_id BIGINT REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  generation INTEGER NOT NULL DEFAULT 1, attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL, shortened INTEGER NOT NULL DEFAULT 0, created_at BIGINT NOT NULL,
  UNIQUE (subscription_id, inbox_id));
CREATE INDEX push_queue_due ON push_queue (next_attempt_at);
CREATE TABLE push_tokens (
  token_hash TEXT PRIMARY KEY,
  inbox_id BIGINT NOT NULL REFERENCES notifications(inbox_id) ON DELETE CASCADE,
  lifecycle INTEGER NOT NULL, revision INTEGER NOT NULL, used_at BIGINT, created_at BIGINT NOT NULL);
CREATE INDEX push_tokens_by_inbox ON push_tokens (inbox_id);
`;

/**
 * Version 2: where a hub message too long for NOTIFY waits for the other processes (postgres-bus.ts).
 * SQLite has one process and no bus; the table is made there too so both schemas stay alike.
 */
const RELAY_BUS = `
CREATE TABLE IF NOT EXISTS relay_bus (
  id INTEGER PRIMARY KEY, payload TEXT NOT NULL, created_at BIGINT NOT NULL);`;
const POSTGRES_RELAY_BUS = `
CREATE TABLE relay_bus (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, payload TEXT NOT NULL, created_at BIGINT NOT NULL);`;

/** In order: migration n is MIGRATIONS[n - 1]. A new one is added at the end, for both databases. */
const MIGRATIONS: Migration[] = [
  { sqlite: sqliteVersion1, postgres: POSTGRES_VERSION_1 },
  { sqlite: (db) => db.exec(RELAY_BUS), postgres: POSTGRES_RELAY_BUS },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version the database is at: 0 before any migration. */
export async function schemaVersion(db: SqlDatabase): Promise<number> {
  const exists =
    db.dialect === 'sqlite'
      ? await db.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'relay_schema'")
      : await db.get(
          "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'relay_schema'",
        );
  if (!exists) return 0;
  const row = await db.get('SELECT MAX(version) AS version FROM relay_schema');
  return (row?.['version'] as number | null) ?? 0;
}

/**
 * A database a newer notify-relay has migrated: this one does not know its tables, so it neither opens
 * nor changes it (as notifyd refuses a newer notify.db).
 */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  constructor(readonly version: number) {
    super(
      `its schema is version ${version}, newer than this notify-relay understands (${SCHEMA_VERSION}); upgrade notify-relay, or use the release that wrote it`,
    );
  }
}

/** Applies the migrations the database lacks; the versions it applied. Refuses a newer database. */
export async function migrate(db: SqlDatabase): Promise<number[]> {
  return db.withMigrationLock(() =>
    db.transaction(async () => {
      const current = await schemaVersion(db);
      if (current > SCHEMA_VERSION) throw new NewerSchemaError(current);
      // A current database is only read: a relay started on a read-only standby gets as far as LISTEN,
      // which says why it cannot serve from there.
      if (current === SCHEMA_VERSION) return [];
      await db.exec(
        'CREATE TABLE IF NOT EXISTS relay_schema (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const applied: number[] = [];
      for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
        const migration = MIGRATIONS[version - 1]!;
        if (db.dialect === 'sqlite') await migration.sqlite(db);
        else await db.exec(migration.postgres);
        await db.run('INSERT INTO relay_schema (version, applied_at) VALUES (?, ?)', [version, Date.now()]);
        applied.push(version);
      }
      return applied;
    }),
  );
}
