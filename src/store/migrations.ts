import { intakeRangeOf, INTAKE_RANGE } from './intake-range.js';

/**
 * Numbered schema migrations, applied in order inside one transaction each; never edit a shipped one,
 * add the next number instead.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Migration 4's triggers: before a notification with an intake row not yet moved changes or goes, its
 * row keeps a copy of it as it was at the change.
 */
const keepIntakeNotificationBefore = (event: 'UPDATE' | 'DELETE'): string => `
      CREATE TRIGGER outbox_intake_before_${event.toLowerCase()} BEFORE ${event} ON notifications
      WHEN EXISTS (SELECT 1 FROM outbox_intake WHERE notification_id = OLD.id AND snapshot IS NULL)
      BEGIN
        UPDATE outbox_intake SET snapshot = json_object(
            'id', OLD.id, 'key', OLD.key, 'agent', OLD.agent, 'agent_instance', OLD.agent_instance,
            'project', OLD.project, 'type', OLD.type, 'priority', OLD.priority, 'title', OLD.title,
            'message', OLD.message, 'cwd', OLD.cwd, 'pid', OLD.pid, 'status', OLD.status,
            'created_at', OLD.created_at, 'updated_at', OLD.updated_at, 'resolved_at', OLD.resolved_at,
            'metadata', OLD.metadata)
        WHERE notification_id = OLD.id AND snapshot IS NULL;
      END;`;

/** The notification as it was (OLD), in the shape the intake's copies take since migration 5. */
const OLD_NOTIFICATION_WITH_ANSWERS = `json_object(
            'id', OLD.id, 'key', OLD.key, 'agent', OLD.agent, 'agent_instance', OLD.agent_instance,
            'project', OLD.project, 'type', OLD.type, 'priority', OLD.priority, 'title', OLD.title,
            'message', OLD.message, 'cwd', OLD.cwd, 'pid', OLD.pid, 'status', OLD.status,
            'created_at', OLD.created_at, 'updated_at', OLD.updated_at, 'resolved_at', OLD.resolved_at,
            'metadata', OLD.metadata, 'actions', OLD.actions, 'answer', OLD.answer)`;

/** Migration 11's copy: migration 5's, with the revision the person answers. */
const OLD_NOTIFICATION_WITH_REVISION = OLD_NOTIFICATION_WITH_ANSWERS.replace(
  "'answer', OLD.answer)",
  "'answer', OLD.answer, 'revision', OLD.revision)",
);

/** Migration 12's copy: migration 11's, with the agent token's name the notification was raised with. */
const OLD_NOTIFICATION_WITH_RAISED_BY = OLD_NOTIFICATION_WITH_REVISION.replace(
  "'revision', OLD.revision)",
  "'revision', OLD.revision, 'raised_by', OLD.raised_by)",
);

/** Migration 5's triggers: migration 4's, with the actions and the answer in the copy. */
const keepIntakeNotificationWithAnswersBefore = (event: 'UPDATE' | 'DELETE'): string => `
      CREATE TRIGGER outbox_intake_before_${event.toLowerCase()} BEFORE ${event} ON notifications
      WHEN EXISTS (SELECT 1 FROM outbox_intake WHERE notification_id = OLD.id AND snapshot IS NULL)
      BEGIN
        UPDATE outbox_intake SET snapshot = ${OLD_NOTIFICATION_WITH_ANSWERS}
        WHERE notification_id = OLD.id AND snapshot IS NULL;
      END;`;

/**
 * Migration 10's triggers: migration 5's, finding the notification's rows in its range of the intake;
 * migration 11 makes them again with the revision in the copy.
 */
const keepRangedIntakeNotificationBefore = (
  event: 'UPDATE' | 'DELETE',
  copy: string = OLD_NOTIFICATION_WITH_ANSWERS,
): string => `
      CREATE TRIGGER outbox_intake_before_${event.toLowerCase()} BEFORE ${event} ON notifications
      WHEN EXISTS (SELECT 1 FROM outbox_intake
        WHERE ${intakeRangeOf('OLD.seq')} AND notification_id = OLD.id AND snapshot IS NULL)
      BEGIN
        UPDATE outbox_intake SET snapshot = ${copy}
        WHERE ${intakeRangeOf('OLD.seq')} AND notification_id = OLD.id AND snapshot IS NULL;
      END;`;

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
  {
    version: 3,
    description:
      'outbound delivery: providers, their encrypted secrets, routes, the outbox, and recorded choices',
    sql: `
      CREATE TABLE providers (
        id          TEXT    PRIMARY KEY,
        kind        TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        enabled     INTEGER NOT NULL DEFAULT 0,
        settings    TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        last_result TEXT
      );
      -- One row per secret setting: AES-256-GCM ciphertext, never the value itself.
      CREATE TABLE provider_secrets (
        provider_id TEXT NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
        name        TEXT NOT NULL,
        sealed      BLOB NOT NULL,
        PRIMARY KEY (provider_id, name)
      );
      CREATE TABLE routes (
        id               TEXT    PRIMARY KEY,
        name             TEXT    NOT NULL,
        provider_id      TEXT    NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
        enabled          INTEGER NOT NULL DEFAULT 0,
        minimum_priority TEXT    NOT NULL CHECK (minimum_priority IN ('low', 'normal', 'high', 'critical')),
        type_id          TEXT,
        project          TEXT,
        agent            TEXT,
        include_message  INTEGER NOT NULL DEFAULT 1,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL
      );
      -- No foreign keys to notifications or routes: an item outlives a pruned notification or a deleted
      -- route, so what was promised is still delivered (or visibly dead-lettered).
      CREATE TABLE outbox (
        seq             INTEGER PRIMARY KEY,
        notification_id TEXT    NOT NULL,
        route_id        TEXT    NOT NULL,
        provider_id     TEXT    NOT NULL,
        operation       TEXT    NOT NULL CHECK (operation IN ('send', 'update', 'clear')),
        event           TEXT    NOT NULL,
        payload         TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL UNIQUE,
        state           TEXT    NOT NULL CHECK (state IN ('pending', 'in_flight', 'delivered', 'dead')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        reference       TEXT,
        last_reason     TEXT,
        last_status     INTEGER,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL
      );
      CREATE INDEX outbox_due ON outbox (next_attempt_at, seq) WHERE state = 'pending';
      -- The dispatcher claims per provider, up to that provider's free capacity.
      CREATE INDEX outbox_provider_due ON outbox (provider_id, next_attempt_at, seq) WHERE state = 'pending';
      CREATE INDEX outbox_state ON outbox (state, seq);
      CREATE INDEX outbox_lifecycle ON outbox (notification_id, route_id, seq);
      -- Choices made once and kept, e.g. where the secrets master key lives.
      CREATE TABLE choices (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'outbox intake: the outbox items of one change, written with it as one row',
    sql: `
      -- A create with three matching routes writes one small row here instead of three indexed items
      -- with their payloads: the API answers almost as fast as without routes. The dispatcher turns each
      -- row into its items (the outbox table) in one transaction before it reads the outbox, so nothing
      -- is lost or seen twice. A payload is built then, from the notification as it was at the change:
      -- the notification row itself, or, once that changed again or was deleted before the move, the
      -- copy of it the triggers below keep in snapshot.
      CREATE TABLE outbox_intake (
        seq             INTEGER PRIMARY KEY,
        notification_id TEXT    NOT NULL,
        items           TEXT    NOT NULL,
        snapshot        TEXT,
        created_at      INTEGER NOT NULL
      );
      CREATE INDEX outbox_intake_notification ON outbox_intake (notification_id);
      ${keepIntakeNotificationBefore('UPDATE')}
      ${keepIntakeNotificationBefore('DELETE')}
    `,
  },
  {
    version: 5,
    description: 'answers: the actions a notification offers and the answer that resolved it',
    sql: `
      ALTER TABLE notifications ADD COLUMN actions TEXT;
      ALTER TABLE notifications ADD COLUMN answer TEXT;
      -- The intake's copy of a notification keeps its actions and answer too, so a delivery built after a
      -- later change still tells what was answered.
      DROP TRIGGER outbox_intake_before_update;
      DROP TRIGGER outbox_intake_before_delete;
      ${keepIntakeNotificationWithAnswersBefore('UPDATE')}
      ${keepIntakeNotificationWithAnswersBefore('DELETE')}
    `,
  },
  {
    version: 6,
    description: 'web page sign-in: the sessions of the page, by the hash of their cookie',
    sql: `
      -- The cookie itself is never stored: a copy of the database signs nobody in. token_fingerprint ties a
      -- session to the authToken it was made under, so a new token ends every session made before it.
      CREATE TABLE web_sessions (
        id                TEXT    PRIMARY KEY,
        secret_hash       TEXT    NOT NULL UNIQUE,
        token_fingerprint TEXT    NOT NULL,
        user_agent        TEXT,
        created_at        INTEGER NOT NULL,
        last_seen_at      INTEGER NOT NULL,
        expires_at        INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    description: 'routes that wait: a delay per route, and outbox sends that wait for it or were cancelled',
    sql: `
      ALTER TABLE routes ADD COLUMN delay_seconds INTEGER NOT NULL DEFAULT 0
        CHECK (delay_seconds BETWEEN 0 AND 86400);
      -- The outbox again, with the state 'cancelled' (a waiting send whose notification was handled
      -- first) and wait_until: set while a send waits for its route's delay, cleared when its first
      -- attempt starts. SQLite cannot change a CHECK in place, so the table is copied.
      CREATE TABLE outbox_next (
        seq             INTEGER PRIMARY KEY,
        notification_id TEXT    NOT NULL,
        route_id        TEXT    NOT NULL,
        provider_id     TEXT    NOT NULL,
        operation       TEXT    NOT NULL CHECK (operation IN ('send', 'update', 'clear')),
        event           TEXT    NOT NULL,
        payload         TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL UNIQUE,
        state           TEXT    NOT NULL
          CHECK (state IN ('pending', 'in_flight', 'delivered', 'dead', 'cancelled')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        reference       TEXT,
        last_reason     TEXT,
        last_status     INTEGER,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        wait_until      INTEGER
      );
      INSERT INTO outbox_next (seq, notification_id, route_id, provider_id, operation, event, payload,
          idempotency_key, state, attempts, next_attempt_at, reference, last_reason, last_status,
          created_at, updated_at)
        SELECT seq, notification_id, route_id, provider_id, operation, event, payload, idempotency_key,
          state, attempts, next_attempt_at, reference, last_reason, last_status, created_at, updated_at
        FROM outbox;
      DROP TABLE outbox;
      ALTER TABLE outbox_next RENAME TO outbox;
      CREATE INDEX outbox_due ON outbox (next_attempt_at, seq) WHERE state = 'pending';
      CREATE INDEX outbox_provider_due ON outbox (provider_id, next_attempt_at, seq) WHERE state = 'pending';
      CREATE INDEX outbox_state ON outbox (state, seq);
      CREATE INDEX outbox_lifecycle ON outbox (notification_id, route_id, seq);
      -- The sends that wait (listed and counted as 'waiting'): few, whatever the size of the outbox.
      CREATE INDEX outbox_waiting ON outbox (seq) WHERE state = 'pending' AND wait_until IS NOT NULL;
    `,
  },
  {
    version: 8,
    description: 'attention: snoozes and reminders of notifications, routes that send during quiet hours',
    sql: `
      -- When a notification alerts again: a snooze's end, else its next reminder. Due times live here,
      -- not in timers, so a restart loses none.
      ALTER TABLE notifications ADD COLUMN snoozed_until INTEGER;
      ALTER TABLE notifications ADD COLUMN remind_at INTEGER;
      ALTER TABLE notifications ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX notifications_alert_due ON notifications (coalesce(snoozed_until, remind_at))
        WHERE status = 'active';
      ALTER TABLE routes ADD COLUMN send_during_quiet_hours INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 9,
    description: 'relay answers: the last event of each relay provider applied, to resume from',
    sql: `
      -- The id of the last event of a relay's event stream that was applied, sent as Last-Event-ID when
      -- notifyd reconnects: an answer given while the laptop slept arrives once it wakes, and only once.
      CREATE TABLE relay_cursors (
        provider_id   TEXT    PRIMARY KEY REFERENCES providers (id) ON DELETE CASCADE,
        last_event_id TEXT    NOT NULL,
        updated_at    INTEGER NOT NULL
      );
    `,
  },
  {
    version: 10,
    description:
      'outbox intake without its index of notification ids: rows keyed in their notification range',
    sql: `
      -- Issue 20's bench: with three matching routes, a create spent more time on the intake's index of
      -- notification ids than on the row itself. Now a notification's changes are numbered in a range of
      -- the intake's own key that starts at the notification's seq (intake-range.ts), so finding them is
      -- a search of the key, and a create writes no index entry. A notification's changes keep their
      -- order; rows of a notification deleted before the upgrade (kept as copies) come first, below zero.
      DROP TRIGGER outbox_intake_before_update;
      DROP TRIGGER outbox_intake_before_delete;
      CREATE TABLE outbox_intake_ranged (
        seq             INTEGER PRIMARY KEY,
        notification_id TEXT    NOT NULL,
        items           TEXT    NOT NULL,
        snapshot        TEXT,
        created_at      INTEGER NOT NULL
      );
      INSERT INTO outbox_intake_ranged (seq, notification_id, items, snapshot, created_at)
        SELECT CASE WHEN n.seq IS NULL THEN i.seq - (SELECT max(seq) + 1 FROM outbox_intake)
               ELSE n.seq * ${INTAKE_RANGE} - 1
                 + row_number() OVER (PARTITION BY i.notification_id ORDER BY i.seq) END,
          i.notification_id, i.items, i.snapshot, i.created_at
        FROM outbox_intake i LEFT JOIN notifications n ON n.id = i.notification_id;
      DROP TABLE outbox_intake;
      ALTER TABLE outbox_intake_ranged RENAME TO outbox_intake;
      ${keepRangedIntakeNotificationBefore('UPDATE')}
      ${keepRangedIntakeNotificationBefore('DELETE')}
    `,
  },
  {
    version: 11,
    description: 'the revision of each notification: what an answer names, so it approves what was shown',
    sql: `
      -- Counts the changes of what a person sees or answers (docs/answers.md "Revisions"): an answer
      -- names the revision it answers, and one to an older revision is refused. Existing rows start at 1.
      ALTER TABLE notifications ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      DROP TRIGGER outbox_intake_before_update;
      DROP TRIGGER outbox_intake_before_delete;
      ${keepRangedIntakeNotificationBefore('UPDATE', OLD_NOTIFICATION_WITH_REVISION)}
      ${keepRangedIntakeNotificationBefore('DELETE', OLD_NOTIFICATION_WITH_REVISION)}
    `,
  },
  {
    version: 12,
    description: 'agent tokens: hashed, named, expiring; each notification keeps the name it was raised with',
    sql: `
      -- Tokens a remote machine or container holds instead of the owner token (docs/remote.md): only the
      -- SHA-256 of each is kept, so the database never holds a token that works.
      CREATE TABLE agent_tokens (
        name         TEXT    PRIMARY KEY,
        token_hash   TEXT    NOT NULL UNIQUE,
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER,
        expires_at   INTEGER
      );
      -- The name of the agent token a notification was raised with (NULL: the owner token): such a
      -- token reads and changes only its own, and every surface shows the name ("api-box · claude").
      ALTER TABLE notifications ADD COLUMN raised_by TEXT;
      CREATE INDEX notifications_raised_by ON notifications (raised_by, seq) WHERE raised_by IS NOT NULL;
      DROP TRIGGER outbox_intake_before_update;
      DROP TRIGGER outbox_intake_before_delete;
      ${keepRangedIntakeNotificationBefore('UPDATE', OLD_NOTIFICATION_WITH_RAISED_BY)}
      ${keepRangedIntakeNotificationBefore('DELETE', OLD_NOTIFICATION_WITH_RAISED_BY)}
    `,
  },
  {
    version: 13,
    description: 'where the agent of each notification runs, so a click can take the person there',
    sql: `
      -- JSON of the notification's origin (docs/focus.md): tmux pane, kitty window, ... innermost first.
      -- Only focus and the quiet-while-focused check read it, never a delivery, so the intake's copies
      -- go without it.
      ALTER TABLE notifications ADD COLUMN origin TEXT;
    `,
  },
  {
    version: 14,
    description: 'what a provider said later about a delivered send: seen on the phone, or over unseen',
    sql: `
      -- Of a send whose kind can be asked later (Pushover's emergency receipt): 'seen' (the person
      -- acknowledged it, at follow_at ms, on the device follow_device) or 'over' (it stopped alerting
      -- unseen); NULL while it may still be seen. The broker stops asking once it is set.
      ALTER TABLE outbox ADD COLUMN follow_state TEXT;
      ALTER TABLE outbox ADD COLUMN follow_at INTEGER;
      ALTER TABLE outbox ADD COLUMN follow_device TEXT;
    `,
  },
];
