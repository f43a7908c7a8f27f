/** All of the relay's SQL: one SQLite file in the --data folder (relay.db). */
import Database from 'better-sqlite3';
import { chmodSync } from 'node:fs';
import type { Action, Delivered, RelayStatus, Stored } from './domain/delivery.js';
import type { Pairing, PairingState } from './domain/pairing.js';
import { PeopleStore } from './people-store.js';
import { PushStore } from './push-store.js';
import { migrate } from './store-migrations.js';

const SCHEMA = `
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

export const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;
/** A session unused this long ends, whatever is left of its lifetime. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
const SESSION_TOUCH_MS = 60_000;
export const INVITE_LIFETIME_MS = 72 * 3_600_000;
const NOTIFICATION_RETENTION_MS = 30 * 24 * 3_600_000;
const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;
const EVENT_RETENTION_MS = 7 * 24 * 3_600_000;

export interface User {
  id: string;
  username: string;
  passwordHash: string;
  isOperator: boolean;
  createdAt: number;
}

export interface Installation {
  id: string;
  userId: string;
  name: string;
  client: string | null;
  createdAt: number;
}

export interface StoredEvent {
  id: number;
  installationId: string;
  type: string;
  data: string;
}

export interface Replay {
  status: number;
  body: string;
  requestHash: string;
}

type Row = Record<string, unknown>;

function userOf(row: Row | undefined): User | undefined {
  if (!row) return undefined;
  return {
    id: row['id'] as string,
    username: row['username'] as string,
    passwordHash: row['password_hash'] as string,
    isOperator: row['is_operator'] === 1,
    createdAt: row['created_at'] as number,
  };
}

function pairingOf(row: Row | undefined): Pairing | undefined {
  if (!row) return undefined;
  return {
    id: row['id'] as string,
    secretHash: row['secret_hash'] as string,
    userCode: row['user_code'] as string,
    senderName: row['sender_name'] as string,
    client: row['client'] as string | null,
    createdAt: row['created_at'] as number,
    expiresAt: row['expires_at'] as number,
    intervalSeconds: row['interval_seconds'] as number,
    lastPollAt: row['last_poll_at'] as number | null,
    state: row['state'] as PairingState,
    endedAt: row['ended_at'] as number | null,
    approvedBy: row['approved_by'] as string | null,
  };
}

function installationOf(row: Row | undefined): Installation | undefined {
  if (!row) return undefined;
  return {
    id: row['id'] as string,
    userId: row['user_id'] as string,
    name: row['name'] as string,
    client: row['client'] as string | null,
    createdAt: row['created_at'] as number,
  };
}

function storedOf(row: Row | undefined): Stored | undefined {
  if (!row) return undefined;
  return {
    inboxId: row['inbox_id'] as number,
    installationId: row['installation_id'] as string,
    notificationId: row['notification_id'] as string,
    lifecycle: row['lifecycle'] as number,
    revision: row['revision'] as number,
    senderRevision: row['sender_revision'] as number | null,
    messageIncluded: row['message_included'] !== 0,
    title: row['title'] as string,
    message: row['message'] as string,
    type: row['type'] as string,
    priority: row['priority'] as Stored['priority'],
    agent: row['agent'] as string,
    project: row['project'] as string | null,
    status: row['status'] as RelayStatus,
    actions: JSON.parse(row['actions'] as string) as Action[],
    answerAction: row['answer_action'] as string | null,
    answeredAt: row['answered_at'] as string | null,
    createdAt: row['created_at'] as string,
    updatedAt: row['updated_at'] as string,
    receivedAt: row['received_at'] as number,
  };
}

export class RelayStore {
  private readonly db: Database.Database;
  private readonly statements;
  /** People management: sessions, passwords, removal, invitations (people-store.ts). */
  readonly people: PeopleStore;
  /** Phone push: keys, devices, the push queue, answer tokens (push-store.ts). */
  readonly push: PushStore;

  constructor(file: string) {
    this.db = new Database(file);
    chmodSync(file, 0o600);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    // User names are unique without case. A relay from before that rule may hold names differing only
    // in case: they are kept (each signs in with its exact spelling), and then the index waits.
    if (this.userNameCaseClashes().length === 0)
      this.db.exec(
        'CREATE UNIQUE INDEX IF NOT EXISTS users_by_name_nocase ON users (username COLLATE NOCASE)',
      );
    migrate(this.db);
    const db = this.db;
    this.people = new PeopleStore(db);
    this.push = new PushStore(db);
    this.statements = {
      countUsers: db.prepare('SELECT COUNT(*) AS n FROM users'),
      insertUser: db.prepare(
        'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      // User names compare without case; a relay from before that rule may hold two names differing
      // only in case (docs/relay.md): the exact spelling wins, then the older account.
      userByName: db.prepare(
        'SELECT * FROM users WHERE username = ? COLLATE NOCASE ORDER BY username = ? DESC, created_at LIMIT 1',
      ),
      userById: db.prepare('SELECT * FROM users WHERE id = ?'),
      users: db.prepare('SELECT * FROM users ORDER BY created_at'),
      insertSession: db.prepare(
        'INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at) VALUES (?, ?, ?, ?, ?)',
      ),
      sessionUser: db.prepare(
        `SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id
         WHERE token_hash = ? AND expires_at > ? AND last_used_at > ?`,
      ),
      // At most one write a minute per session: a busy inbox does not write on every request.
      touchSession: db.prepare(
        'UPDATE sessions SET last_used_at = ? WHERE token_hash = ? AND last_used_at <= ?',
      ),
      deleteSession: db.prepare('DELETE FROM sessions WHERE token_hash = ?'),
      insertInvite: db.prepare(
        'INSERT INTO invites (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)',
      ),
      liveInvite: db.prepare('SELECT token_hash FROM invites WHERE token_hash = ? AND expires_at > ?'),
      deleteInvite: db.prepare('DELETE FROM invites WHERE token_hash = ?'),
      insertPairing: db.prepare(
        `INSERT INTO pairings (id, secret_hash, user_code, sender_name, client, created_at, expires_at,
           interval_seconds, last_poll_at, state, ended_at, approved_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, NULL)`,
      ),
      pairingById: db.prepare('SELECT * FROM pairings WHERE id = ?'),
      openPairingByCode: db.prepare(
        "SELECT * FROM pairings WHERE user_code = ? AND state = 'pending' AND expires_at > ?",
      ),
      recordPoll: db.prepare('UPDATE pairings SET last_poll_at = ?, interval_seconds = ? WHERE id = ?'),
      endPairing: db.prepare('UPDATE pairings SET state = ?, ended_at = ?, approved_by = ? WHERE id = ?'),
      approvePairing: db.prepare(
        "UPDATE pairings SET state = 'approved', approved_by = ? WHERE id = ? AND state = 'pending'",
      ),
      rejectPairing: db.prepare(
        "UPDATE pairings SET state = 'rejected', ended_at = ?, approved_by = ? WHERE id = ? AND state = 'pending'",
      ),
      insertInstallation: db.prepare(
        'INSERT INTO installations (id, user_id, name, client, credential_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      installationByCredential: db.prepare('SELECT * FROM installations WHERE credential_hash = ?'),
      credentialHashOf: db.prepare('SELECT credential_hash FROM installations WHERE id = ?'),
      installationsOf: db.prepare('SELECT * FROM installations WHERE user_id = ? ORDER BY created_at DESC'),
      deleteInstallation: db.prepare('DELETE FROM installations WHERE id = ? AND user_id = ?'),
      notification: db.prepare(
        'SELECT * FROM notifications WHERE installation_id = ? AND notification_id = ?',
      ),
      notificationAt: db.prepare('SELECT * FROM notifications WHERE inbox_id = ?'),
      notificationByInboxId: db.prepare(
        `SELECT notifications.* FROM notifications JOIN installations ON installations.id = installation_id
         WHERE inbox_id = ? AND installations.user_id = ?`,
      ),
      insertNotification: db.prepare(
        `INSERT INTO notifications (installation_id, notification_id, lifecycle, title, message, type, priority,
           agent, project, status, actions, answer_action, answered_at, created_at, updated_at, changed_at,
           received_at, revision, sender_revision, message_included)
         VALUES (@installationId, @notificationId, 1, @title, @message, @type, @priority, @agent, @project,
           @status, @actions, NULL, NULL, @createdAt, @updatedAt, @now, @now, 1, @senderRevision,
           @messageIncluded)`,
      ),
      replaceNotification: db.prepare(
        `UPDATE notifications SET lifecycle = @lifecycle, title = @title, message = @message, type = @type,
           priority = @priority, agent = @agent, project = @project, status = @status, actions = @actions,
           answer_action = @answerAction, answered_at = @answeredAt, created_at = @createdAt,
           updated_at = @updatedAt, changed_at = @now, received_at = @receivedAt, revision = @revision,
           sender_revision = @senderRevision, message_included = @messageIncluded
         WHERE inbox_id = @inboxId`,
      ),
      setStatus: db.prepare('UPDATE notifications SET status = ?, changed_at = ? WHERE inbox_id = ?'),
      setAnswer: db.prepare(
        "UPDATE notifications SET answer_action = ?, answered_at = ?, status = 'resolved', changed_at = ? WHERE inbox_id = ?",
      ),
      inbox: db.prepare(
        `SELECT notifications.*, installations.name AS installation_name FROM notifications
         JOIN installations ON installations.id = installation_id WHERE installations.user_id = ?
         ORDER BY status = 'active' DESC, received_at DESC, inbox_id DESC LIMIT ?`,
      ),
      installationName: db.prepare('SELECT name FROM installations WHERE id = ?'),
      installationOwner: db.prepare('SELECT user_id FROM installations WHERE id = ?'),
      countNotifications: db.prepare(
        "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE status != 'active') AS ended FROM notifications WHERE installation_id = ?",
      ),
      dropOldestEnded: db.prepare(
        `DELETE FROM notifications WHERE inbox_id IN (SELECT inbox_id FROM notifications
           WHERE installation_id = ? AND status != 'active' ORDER BY changed_at, inbox_id LIMIT ?)`,
      ),
      replay: db.prepare(
        'SELECT request_hash, status, body FROM idempotency WHERE installation_id = ? AND key = ?',
      ),
      insertReplay: db.prepare(
        'INSERT INTO idempotency (installation_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertEvent: db.prepare(
        'INSERT INTO events (installation_id, type, data, created_at) VALUES (?, ?, ?, ?)',
      ),
      eventsAfter: db.prepare(
        'SELECT id, installation_id, type, data FROM events WHERE installation_id = ? AND id > ? ORDER BY id LIMIT 1000',
      ),
      purgeSessions: db.prepare('DELETE FROM sessions WHERE expires_at <= ? OR last_used_at <= ?'),
      purgeInvites: db.prepare('DELETE FROM invites WHERE expires_at <= ?'),
      purgePairings: db.prepare(
        "DELETE FROM pairings WHERE (CASE WHEN state IN ('rejected', 'consumed') THEN ended_at ELSE expires_at END) <= ?",
      ),
      purgeNotifications: db.prepare('DELETE FROM notifications WHERE changed_at <= ?'),
      purgeReplays: db.prepare('DELETE FROM idempotency WHERE created_at <= ?'),
      purgeEvents: db.prepare('DELETE FROM events WHERE created_at <= ?'),
    };
  }

  close(): void {
    this.db.close();
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  countUsers(): number {
    return (this.statements.countUsers.get() as { n: number }).n;
  }

  insertUser(user: User): void {
    this.statements.insertUser.run(
      user.id,
      user.username,
      user.passwordHash,
      user.isOperator ? 1 : 0,
      user.createdAt,
    );
  }

  userByName(username: string): User | undefined {
    return userOf(this.statements.userByName.get(username, username) as Row | undefined);
  }

  /** Groups of user names that differ only in case (kept from before names compared without case). */
  userNameCaseClashes(): string[][] {
    const rows = this.db
      .prepare(
        'SELECT group_concat(username, char(10)) AS names FROM users GROUP BY lower(username) HAVING COUNT(*) > 1',
      )
      .all() as { names: string }[];
    return rows.map((row) => row.names.split('\n'));
  }

  /** Inserts the user unless its name is taken in any case, or (onlyIfFirst) any account exists. */
  insertUserIfFree(user: User, onlyIfFirst: boolean): boolean {
    return this.transaction(() => {
      if (onlyIfFirst && this.countUsers() > 0) return false;
      if (this.userByName(user.username)) return false;
      this.insertUser(user);
      return true;
    });
  }

  userById(id: string): User | undefined {
    return userOf(this.statements.userById.get(id) as Row | undefined);
  }

  users(): User[] {
    return (this.statements.users.all() as Row[]).map((row) => userOf(row)!);
  }

  insertSession(tokenHash: string, userId: string, now: number): void {
    this.statements.insertSession.run(tokenHash, userId, now, now + SESSION_LIFETIME_MS, now);
  }

  /** The session's person while it is within both its lifetime and its idle limit; the use counts. */
  sessionUser(tokenHash: string, now: number): User | undefined {
    const user = userOf(
      this.statements.sessionUser.get(tokenHash, now, now - SESSION_IDLE_MS) as Row | undefined,
    );
    if (user) this.statements.touchSession.run(now, tokenHash, now - SESSION_TOUCH_MS);
    return user;
  }

  deleteSession(tokenHash: string): void {
    this.statements.deleteSession.run(tokenHash);
  }

  insertInvite(tokenHash: string, createdBy: string, now: number): void {
    this.statements.insertInvite.run(tokenHash, createdBy, now, now + INVITE_LIFETIME_MS);
  }

  isLiveInvite(tokenHash: string, now: number): boolean {
    return this.statements.liveInvite.get(tokenHash, now) !== undefined;
  }

  /** Uses an invitation up: true when it was still there (two tabs cannot both use it). */
  takeInvite(tokenHash: string, now: number): boolean {
    if (!this.isLiveInvite(tokenHash, now)) return false;
    return this.statements.deleteInvite.run(tokenHash).changes === 1;
  }

  insertPairing(pairing: Pairing): void {
    this.statements.insertPairing.run(
      pairing.id,
      pairing.secretHash,
      pairing.userCode,
      pairing.senderName,
      pairing.client,
      pairing.createdAt,
      pairing.expiresAt,
      pairing.intervalSeconds,
    );
  }

  pairing(id: string): Pairing | undefined {
    return pairingOf(this.statements.pairingById.get(id) as Row | undefined);
  }

  openPairingByCode(userCode: string, now: number): Pairing | undefined {
    return pairingOf(this.statements.openPairingByCode.get(userCode, now) as Row | undefined);
  }

  recordPoll(id: string, now: number, intervalSeconds: number): void {
    this.statements.recordPoll.run(now, intervalSeconds, id);
  }

  approvePairing(id: string, userId: string): boolean {
    return this.statements.approvePairing.run(userId, id).changes === 1;
  }

  rejectPairing(id: string, userId: string, now: number): boolean {
    return this.statements.rejectPairing.run(now, userId, id).changes === 1;
  }

  consumePairing(id: string, now: number, approvedBy: string): void {
    this.statements.endPairing.run('consumed', now, approvedBy, id);
  }

  insertInstallation(installation: Installation, credentialHash: string): void {
    this.statements.insertInstallation.run(
      installation.id,
      installation.userId,
      installation.name,
      installation.client,
      credentialHash,
      installation.createdAt,
    );
  }

  /** The installation whose stored credential hash is this one, with that stored hash for a fixed-time check. */
  installationByCredential(
    credentialHash: string,
  ): { installation: Installation; storedHash: string } | undefined {
    const row = this.statements.installationByCredential.get(credentialHash) as Row | undefined;
    const installation = installationOf(row);
    return installation && { installation, storedHash: row!['credential_hash'] as string };
  }

  installationsOf(userId: string): Installation[] {
    return (this.statements.installationsOf.all(userId) as Row[]).map((row) => installationOf(row)!);
  }

  installationName(id: string): string | undefined {
    return (this.statements.installationName.get(id) as { name: string } | undefined)?.name;
  }

  ownerOfInstallation(id: string): string | undefined {
    return (this.statements.installationOwner.get(id) as { user_id: string } | undefined)?.user_id;
  }

  /** Deletes the installation with its notifications, events and idempotency records. */
  deleteInstallation(id: string, userId: string): boolean {
    return this.statements.deleteInstallation.run(id, userId).changes === 1;
  }

  notification(installationId: string, notificationId: string): Stored | undefined {
    return storedOf(this.statements.notification.get(installationId, notificationId) as Row | undefined);
  }

  notificationAt(inboxId: number): Stored | undefined {
    return storedOf(this.statements.notificationAt.get(inboxId) as Row | undefined);
  }

  notificationOfUser(inboxId: number, userId: string): Stored | undefined {
    return storedOf(this.statements.notificationByInboxId.get(inboxId, userId) as Row | undefined);
  }

  insertNotification(
    installationId: string,
    notificationId: string,
    delivered: Delivered,
    now: number,
  ): Stored {
    const inserted = this.statements.insertNotification.run({
      ...delivered,
      installationId,
      notificationId,
      actions: JSON.stringify(delivered.actions),
      messageIncluded: delivered.messageIncluded ? 1 : 0,
      now,
    });
    return {
      ...delivered,
      inboxId: Number(inserted.lastInsertRowid),
      installationId,
      notificationId,
      lifecycle: 1,
      revision: 1,
      answerAction: null,
      answeredAt: null,
      receivedAt: now,
    };
  }

  /**
   * Room for one more notification of this installation within `max`: drops its oldest ended ones as
   * needed. false when the others are all active (nothing was dropped then).
   */
  makeRoom(installationId: string, max: number): boolean {
    const { n, ended } = this.statements.countNotifications.get(installationId) as {
      n: number;
      ended: number;
    };
    const excess = n - max + 1;
    if (excess <= 0) return true;
    if (ended < excess) return false;
    this.statements.dropOldestEnded.run(installationId, excess);
    return true;
  }

  replaceNotification(stored: Stored, now: number): void {
    this.statements.replaceNotification.run({
      ...stored,
      actions: JSON.stringify(stored.actions),
      messageIncluded: stored.messageIncluded ? 1 : 0,
      now,
    });
  }

  setStatus(inboxId: number, status: RelayStatus, now: number): void {
    this.statements.setStatus.run(status, now, inboxId);
  }

  setAnswer(inboxId: number, action: string, answeredAt: string, now: number): void {
    this.statements.setAnswer.run(action, answeredAt, now, inboxId);
  }

  inbox(userId: string, limit: number): (Stored & { installationName: string })[] {
    return (this.statements.inbox.all(userId, limit) as Row[]).map((row) => ({
      ...storedOf(row)!,
      installationName: row['installation_name'] as string,
    }));
  }

  replay(installationId: string, key: string): Replay | undefined {
    const row = this.statements.replay.get(installationId, key) as Row | undefined;
    if (!row) return undefined;
    return {
      requestHash: row['request_hash'] as string,
      status: row['status'] as number,
      body: row['body'] as string,
    };
  }

  insertReplay(installationId: string, key: string, replay: Replay, now: number): void {
    this.statements.insertReplay.run(
      installationId,
      key,
      replay.requestHash,
      replay.status,
      replay.body,
      now,
    );
  }

  insertEvent(installationId: string, type: string, data: string, now: number): number {
    return Number(this.statements.insertEvent.run(installationId, type, data, now).lastInsertRowid);
  }

  eventsAfter(installationId: string, afterId: number): StoredEvent[] {
    return (this.statements.eventsAfter.all(installationId, afterId) as Row[]).map((row) => ({
      id: row['id'] as number,
      installationId: row['installation_id'] as string,
      type: row['type'] as string,
      data: row['data'] as string,
    }));
  }

  /** docs/relay-protocol.md "What the relay stores, and for how long". */
  purge(now: number, endedPairingRetentionMs: number): void {
    this.transaction(() => {
      this.statements.purgeSessions.run(now, now - SESSION_IDLE_MS);
      this.statements.purgeInvites.run(now);
      this.statements.purgePairings.run(now - endedPairingRetentionMs);
      this.statements.purgeNotifications.run(now - NOTIFICATION_RETENTION_MS);
      this.statements.purgeReplays.run(now - IDEMPOTENCY_RETENTION_MS);
      this.statements.purgeEvents.run(now - EVENT_RETENTION_MS);
    });
  }
}
