/** Columns added after the first release: an older relay.db gains them at start, filled from what it has. */
import type Database from 'better-sqlite3';

function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((row) => row.name === column);
}

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
  }).immediate();
}
