/**
 * Numbered schema migrations, applied in order inside one transaction each; never edit a shipped one,
 * add the next number instead.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'notifications with list indexes and one active row per key',
    sql: `
      CREATE TABLE notifications (
        seq            INTEGER PRIMARY KEY,
        id             TEXT    NOT NULL UNIQUE,
        key            TEXT,
        agent          TEXT    NOT NULL,
        agent_instance TEXT,
        project        TEXT,
        type           TEXT    NOT NULL,
        priority       TEXT    NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'critical')),
        title          TEXT    NOT NULL,
        message        TEXT    NOT NULL,
        cwd            TEXT,
        pid            INTEGER,
        status         TEXT    NOT NULL CHECK (status IN ('active', 'dismissed', 'resolved')),
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        resolved_at    INTEGER,
        metadata       TEXT
      );
      -- The schema itself guarantees one active notification per key, whatever the code does.
      CREATE UNIQUE INDEX notifications_active_key ON notifications (key) WHERE status = 'active';
      CREATE INDEX notifications_status ON notifications (status, seq);
      CREATE INDEX notifications_type ON notifications (type, seq);
      CREATE INDEX notifications_project ON notifications (project, seq);
      CREATE INDEX notifications_agent ON notifications (agent, seq);
      CREATE INDEX notifications_terminal_age ON notifications (updated_at) WHERE status <> 'active';
    `,
  },
  {
    version: 2,
    description: 'ARC event identity of unkeyed request.created, and a lookup of the latest row per key',
    sql: `
      ALTER TABLE notifications ADD COLUMN arc_sender_id TEXT;
      ALTER TABLE notifications ADD COLUMN arc_event_id TEXT;
      -- An unkeyed ARC request.created is identified by (sender.id, event_id). The index makes a retry or a
      -- concurrent duplicate conflict instead of inserting, so it can never create a second notification;
      -- the identity lives exactly as long as its notification.
      CREATE UNIQUE INDEX notifications_arc_event ON notifications (arc_sender_id, arc_event_id)
        WHERE arc_event_id IS NOT NULL;
      -- request.resolved looks up the latest notification of a key whatever its status.
      CREATE INDEX notifications_key ON notifications (key, seq) WHERE key IS NOT NULL;
    `,
  },
];
