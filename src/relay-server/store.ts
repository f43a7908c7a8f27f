/**
 * All of the relay's SQL, on SQLite (one file in the --data folder, relay.db) or PostgreSQL (--database),
 * through one SqlDatabase; people-store.ts and push-store.ts hold the rest.
 */
import type { Action, Delivered, RelayStatus, Stored } from './domain/delivery.js';
import type { Pairing, PairingState } from './domain/pairing.js';
import { PeopleStore } from './people-store.js';
import { PushStore } from './push-store.js';
import type { Parameter, Row, SqlDatabase } from './sql-database.js';
import { migrate } from './store-migrations.js';

export const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;
/** A session unused this long ends, whatever is left of its lifetime. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
const SESSION_TOUCH_MS = 60_000;
export const INVITE_LIFETIME_MS = 72 * 3_600_000;
const NOTIFICATION_RETENTION_MS = 30 * 24 * 3_600_000;
const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;
const EVENT_RETENTION_MS = 7 * 24 * 3_600_000;
const BUS_RETENTION_MS = 3_600_000;

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
  /** People management: sessions, passwords, removal, invitations (people-store.ts). */
  readonly people: PeopleStore;
  /** Phone push: keys, devices, the push queue, answer tokens (push-store.ts). */
  readonly push: PushStore;

  private constructor(readonly db: SqlDatabase) {
    this.people = new PeopleStore(db);
    this.push = new PushStore(db);
  }

  /** The store on this database, its schema migrated to the current version first. */
  static async open(db: SqlDatabase): Promise<RelayStore> {
    await migrate(db);
    const store = new RelayStore(db);
    // User names are unique without case. A relay from before that rule may hold names differing only
    // in case: they are kept (each signs in with its exact spelling), and then the index waits.
    if (db.dialect === 'sqlite' && (await store.userNameCaseClashes()).length === 0)
      await db.exec(
        'CREATE UNIQUE INDEX IF NOT EXISTS users_by_name_nocase ON users (username COLLATE NOCASE)',
      );
    return store;
  }

  close(): Promise<void> {
    return this.db.close();
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async countUsers(): Promise<number> {
    return (await this.db.get('SELECT COUNT(*) AS n FROM users'))!['n'] as number;
  }

  async insertUser(user: User): Promise<void> {
    await this.db.run(
      'INSERT INTO users (id, username, password_hash, is_operator, created_at) VALUES (?, ?, ?, ?, ?)',
      [user.id, user.username, user.passwordHash, user.isOperator ? 1 : 0, user.createdAt],
    );
  }

  /**
   * User names compare without case; a relay from before that rule may hold two names differing only
   * in case (docs/relay.md): the exact spelling wins, then the older account.
   */
  async userByName(username: string): Promise<User | undefined> {
    const sameName =
      this.db.dialect === 'sqlite' ? 'username = ? COLLATE NOCASE' : 'lower(username) = lower(?)';
    return userOf(
      await this.db.get(
        `SELECT * FROM users WHERE ${sameName} ORDER BY (username = ?) DESC, created_at LIMIT 1`,
        [username, username],
      ),
    );
  }

  /** Groups of user names that differ only in case (kept from before names compared without case). */
  async userNameCaseClashes(): Promise<string[][]> {
    const names =
      this.db.dialect === 'sqlite' ? 'group_concat(username, char(10))' : "string_agg(username, E'\\n')";
    const rows = await this.db.all(
      `SELECT ${names} AS names FROM users GROUP BY lower(username) HAVING COUNT(*) > 1`,
    );
    return rows.map((row) => (row['names'] as string).split('\n'));
  }

  /** Inserts the user unless its name is taken in any case, or (onlyIfFirst) any account exists. */
  insertUserIfFree(user: User, onlyIfFirst: boolean): Promise<boolean> {
    return this.transaction(async () => {
      if (onlyIfFirst && (await this.countUsers()) > 0) return false;
      if (await this.userByName(user.username)) return false;
      await this.insertUser(user);
      return true;
    });
  }

  async userById(id: string): Promise<User | undefined> {
    return userOf(await this.db.get('SELECT * FROM users WHERE id = ?', [id]));
  }

  async users(): Promise<User[]> {
    return (await this.db.all('SELECT * FROM users ORDER BY created_at')).map((row) => userOf(row)!);
  }

  async insertSession(tokenHash: string, userId: string, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at) VALUES (?, ?, ?, ?, ?)',
      [tokenHash, userId, now, now + SESSION_LIFETIME_MS, now],
    );
  }

  /** The session's person while it is within both its lifetime and its idle limit; the use counts. */
  async sessionUser(tokenHash: string, now: number): Promise<User | undefined> {
    const user = userOf(
      await this.db.get(
        `SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id
         WHERE token_hash = ? AND expires_at > ? AND last_used_at > ?`,
        [tokenHash, now, now - SESSION_IDLE_MS],
      ),
    );
    // At most one write a minute per session: a busy inbox does not write on every request.
    if (user)
      await this.db.run('UPDATE sessions SET last_used_at = ? WHERE token_hash = ? AND last_used_at <= ?', [
        now,
        tokenHash,
        now - SESSION_TOUCH_MS,
      ]);
    return user;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash]);
  }

  async insertInvite(tokenHash: string, createdBy: string, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO invites (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)',
      [tokenHash, createdBy, now, now + INVITE_LIFETIME_MS],
    );
  }

  async isLiveInvite(tokenHash: string, now: number): Promise<boolean> {
    return (
      (await this.db.get('SELECT token_hash FROM invites WHERE token_hash = ? AND expires_at > ?', [
        tokenHash,
        now,
      ])) !== undefined
    );
  }

  /** Uses an invitation up: true when it was still there (two tabs cannot both use it). */
  async takeInvite(tokenHash: string, now: number): Promise<boolean> {
    if (!(await this.isLiveInvite(tokenHash, now))) return false;
    return (await this.db.run('DELETE FROM invites WHERE token_hash = ?', [tokenHash])) === 1;
  }

  async insertPairing(pairing: Pairing): Promise<void> {
    await this.db.run(
      `INSERT INTO pairings (id, secret_hash, user_code, sender_name, client, created_at, expires_at,
         interval_seconds, last_poll_at, state, ended_at, approved_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, NULL)`,
      [
        pairing.id,
        pairing.secretHash,
        pairing.userCode,
        pairing.senderName,
        pairing.client,
        pairing.createdAt,
        pairing.expiresAt,
        pairing.intervalSeconds,
      ],
    );
  }

  async pairing(id: string): Promise<Pairing | undefined> {
    return pairingOf(await this.db.get('SELECT * FROM pairings WHERE id = ?', [id]));
  }

  async openPairingByCode(userCode: string, now: number): Promise<Pairing | undefined> {
    return pairingOf(
      await this.db.get(
        "SELECT * FROM pairings WHERE user_code = ? AND state = 'pending' AND expires_at > ?",
        [userCode, now],
      ),
    );
  }

  async recordPoll(id: string, now: number, intervalSeconds: number): Promise<void> {
    await this.db.run('UPDATE pairings SET last_poll_at = ?, interval_seconds = ? WHERE id = ?', [
      now,
      intervalSeconds,
      id,
    ]);
  }

  async approvePairing(id: string, userId: string): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE pairings SET state = 'approved', approved_by = ? WHERE id = ? AND state = 'pending'",
      [userId, id],
    );
    return changed === 1;
  }

  async rejectPairing(id: string, userId: string, now: number): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE pairings SET state = 'rejected', ended_at = ?, approved_by = ? WHERE id = ? AND state = 'pending'",
      [now, userId, id],
    );
    return changed === 1;
  }

  async consumePairing(id: string, now: number, approvedBy: string): Promise<void> {
    await this.db.run('UPDATE pairings SET state = ?, ended_at = ?, approved_by = ? WHERE id = ?', [
      'consumed',
      now,
      approvedBy,
      id,
    ]);
  }

  async insertInstallation(installation: Installation, credentialHash: string): Promise<void> {
    await this.db.run(
      'INSERT INTO installations (id, user_id, name, client, credential_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [
        installation.id,
        installation.userId,
        installation.name,
        installation.client,
        credentialHash,
        installation.createdAt,
      ],
    );
  }

  /** The installation whose stored credential hash is this one, with that stored hash for a fixed-time check. */
  async installationByCredential(
    credentialHash: string,
  ): Promise<{ installation: Installation; storedHash: string } | undefined> {
    const row = await this.db.get('SELECT * FROM installations WHERE credential_hash = ?', [credentialHash]);
    const installation = installationOf(row);
    return installation && { installation, storedHash: row!['credential_hash'] as string };
  }

  async installationsOf(userId: string): Promise<Installation[]> {
    const rows = await this.db.all('SELECT * FROM installations WHERE user_id = ? ORDER BY created_at DESC', [
      userId,
    ]);
    return rows.map((row) => installationOf(row)!);
  }

  async installationName(id: string): Promise<string | undefined> {
    return (await this.db.get('SELECT name FROM installations WHERE id = ?', [id]))?.['name'] as
      string | undefined;
  }

  async ownerOfInstallation(id: string): Promise<string | undefined> {
    return (await this.db.get('SELECT user_id FROM installations WHERE id = ?', [id]))?.['user_id'] as
      string | undefined;
  }

  /** Deletes the installation with its notifications, events and idempotency records. */
  async deleteInstallation(id: string, userId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM installations WHERE id = ? AND user_id = ?', [id, userId])) === 1;
  }

  async notification(installationId: string, notificationId: string): Promise<Stored | undefined> {
    return storedOf(
      await this.db.get('SELECT * FROM notifications WHERE installation_id = ? AND notification_id = ?', [
        installationId,
        notificationId,
      ]),
    );
  }

  async notificationAt(inboxId: number): Promise<Stored | undefined> {
    return storedOf(await this.db.get('SELECT * FROM notifications WHERE inbox_id = ?', [inboxId]));
  }

  async notificationOfUser(inboxId: number, userId: string): Promise<Stored | undefined> {
    return storedOf(
      await this.db.get(
        `SELECT notifications.* FROM notifications JOIN installations ON installations.id = installation_id
         WHERE inbox_id = ? AND installations.user_id = ?`,
        [inboxId, userId],
      ),
    );
  }

  async insertNotification(
    installationId: string,
    notificationId: string,
    delivered: Delivered,
    now: number,
  ): Promise<Stored> {
    const inserted = await this.db.get(
      `INSERT INTO notifications (installation_id, notification_id, lifecycle, title, message, type, priority,
         agent, project, status, actions, answer_action, answered_at, created_at, updated_at, changed_at,
         received_at, revision, sender_revision, message_included)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, 1, ?, ?) RETURNING inbox_id`,
      [
        installationId,
        notificationId,
        delivered.title,
        delivered.message,
        delivered.type,
        delivered.priority,
        delivered.agent,
        delivered.project,
        delivered.status,
        JSON.stringify(delivered.actions),
        delivered.createdAt,
        delivered.updatedAt,
        now,
        now,
        delivered.senderRevision,
        delivered.messageIncluded ? 1 : 0,
      ],
    );
    return {
      ...delivered,
      inboxId: inserted!['inbox_id'] as number,
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
  async makeRoom(installationId: string, max: number): Promise<boolean> {
    const counts = (await this.db.get(
      "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE status != 'active') AS ended FROM notifications WHERE installation_id = ?",
      [installationId],
    ))!;
    const excess = (counts['n'] as number) - max + 1;
    if (excess <= 0) return true;
    if ((counts['ended'] as number) < excess) return false;
    await this.db.run(
      `DELETE FROM notifications WHERE inbox_id IN (SELECT inbox_id FROM notifications
         WHERE installation_id = ? AND status != 'active' ORDER BY changed_at, inbox_id LIMIT ?)`,
      [installationId, excess],
    );
    return true;
  }

  async replaceNotification(stored: Stored, now: number): Promise<void> {
    await this.db.run(
      `UPDATE notifications SET lifecycle = ?, title = ?, message = ?, type = ?, priority = ?, agent = ?,
         project = ?, status = ?, actions = ?, answer_action = ?, answered_at = ?, created_at = ?,
         updated_at = ?, changed_at = ?, received_at = ?, revision = ?, sender_revision = ?,
         message_included = ?
       WHERE inbox_id = ?`,
      [
        stored.lifecycle,
        stored.title,
        stored.message,
        stored.type,
        stored.priority,
        stored.agent,
        stored.project,
        stored.status,
        JSON.stringify(stored.actions),
        stored.answerAction,
        stored.answeredAt,
        stored.createdAt,
        stored.updatedAt,
        now,
        stored.receivedAt,
        stored.revision,
        stored.senderRevision,
        stored.messageIncluded ? 1 : 0,
        stored.inboxId,
      ],
    );
  }

  async setStatus(inboxId: number, status: RelayStatus, now: number): Promise<void> {
    await this.db.run('UPDATE notifications SET status = ?, changed_at = ? WHERE inbox_id = ?', [
      status,
      now,
      inboxId,
    ]);
  }

  async setAnswer(inboxId: number, action: string, answeredAt: string, now: number): Promise<void> {
    await this.db.run(
      "UPDATE notifications SET answer_action = ?, answered_at = ?, status = 'resolved', changed_at = ? WHERE inbox_id = ?",
      [action, answeredAt, now, inboxId],
    );
  }

  async inbox(userId: string, limit: number): Promise<(Stored & { installationName: string })[]> {
    const rows = await this.db.all(
      `SELECT notifications.*, installations.name AS installation_name FROM notifications
       JOIN installations ON installations.id = installation_id WHERE installations.user_id = ?
       ORDER BY (status = 'active') DESC, received_at DESC, inbox_id DESC LIMIT ?`,
      [userId, limit],
    );
    return rows.map((row) => ({
      ...storedOf(row)!,
      installationName: row['installation_name'] as string,
    }));
  }

  async replay(installationId: string, key: string): Promise<Replay | undefined> {
    const row = await this.db.get(
      'SELECT request_hash, status, body FROM idempotency WHERE installation_id = ? AND key = ?',
      [installationId, key],
    );
    if (!row) return undefined;
    return {
      requestHash: row['request_hash'] as string,
      status: row['status'] as number,
      body: row['body'] as string,
    };
  }

  async insertReplay(installationId: string, key: string, replay: Replay, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO idempotency (installation_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [installationId, key, replay.requestHash, replay.status, replay.body, now],
    );
  }

  async insertEvent(installationId: string, type: string, data: string, now: number): Promise<number> {
    const row = await this.db.get(
      'INSERT INTO events (installation_id, type, data, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      [installationId, type, data, now],
    );
    return row!['id'] as number;
  }

  async eventsAfter(installationId: string, afterId: number): Promise<StoredEvent[]> {
    const rows = await this.db.all(
      'SELECT id, installation_id, type, data FROM events WHERE installation_id = ? AND id > ? ORDER BY id LIMIT 1000',
      [installationId, afterId],
    );
    return rows.map((row) => ({
      id: row['id'] as number,
      installationId: row['installation_id'] as string,
      type: row['type'] as string,
      data: row['data'] as string,
    }));
  }

  /** docs/relay-protocol.md "What the relay stores, and for how long". */
  purge(now: number, endedPairingRetentionMs: number): Promise<void> {
    const statements: [string, Parameter[]][] = [
      ['DELETE FROM sessions WHERE expires_at <= ? OR last_used_at <= ?', [now, now - SESSION_IDLE_MS]],
      ['DELETE FROM invites WHERE expires_at <= ?', [now]],
      [
        "DELETE FROM pairings WHERE (CASE WHEN state IN ('rejected', 'consumed') THEN ended_at ELSE expires_at END) <= ?",
        [now - endedPairingRetentionMs],
      ],
      ['DELETE FROM notifications WHERE changed_at <= ?', [now - NOTIFICATION_RETENTION_MS]],
      ['DELETE FROM idempotency WHERE created_at <= ?', [now - IDEMPOTENCY_RETENTION_MS]],
      ['DELETE FROM events WHERE created_at <= ?', [now - EVENT_RETENTION_MS]],
      // Every process heard a spilled bus message within moments of its notification.
      ['DELETE FROM relay_bus WHERE created_at <= ?', [now - BUS_RETENTION_MS]],
    ];
    return this.transaction(async () => {
      for (const [sql, parameters] of statements) await this.db.run(sql, parameters);
    });
  }
}
