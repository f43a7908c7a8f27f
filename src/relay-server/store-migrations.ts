/** Columns added after the first release: an older relay.db gains them at start, filled from what it has. */
import type Database from 'better-sqlite3';

function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((row) => row.name === column);
}

const PUSH_SCHEMA = `
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

export function migrate(db: Database.Database): void {
  db.transaction(() => {
    if (!hasColumn(db, 'sessions', 'last_used_at')) {
      db.exec('ALTER TABLE sessions ADD COLUMN last_used_at INTEGER');
      db.exec('UPDATE sessions SET last_used_at = created_at');
    }
    if (!hasColumn(db, 'notifications', 'received_at')) {
      db.exec('ALTER TABLE notifications ADD COLUMN received_at INTEGER');
      db.exec('UPDATE notifications SET received_at = changed_at');
    }
    // What an inbox answer names (the relay's own revision) and what its event carries back (the sender's).
    if (!hasColumn(db, 'notifications', 'revision'))
      db.exec('ALTER TABLE notifications ADD COLUMN revision INTEGER NOT NULL DEFAULT 1');
    if (!hasColumn(db, 'notifications', 'sender_revision'))
      db.exec('ALTER TABLE notifications ADD COLUMN sender_revision INTEGER');
    // Phone push (docs/relay.md "Phone push"): the VAPID key pair, each person's devices, the durable
    // queue of pushes still to send, and the hashed single-use answer tokens the pushes carry.
    db.exec(PUSH_SCHEMA);
    if (!hasColumn(db, 'users', 'push_privacy'))
      db.exec("ALTER TABLE users ADD COLUMN push_privacy TEXT NOT NULL DEFAULT 'full'");
    // 0: the sender's route keeps the message on the laptop (title only), so a push shows no body.
    if (!hasColumn(db, 'notifications', 'message_included'))
      db.exec('ALTER TABLE notifications ADD COLUMN message_included INTEGER NOT NULL DEFAULT 1');
  }).immediate();
}
