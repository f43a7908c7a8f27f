/** The SQL of people management: a person's sessions, their password, removing them, open invitations. */
import type { SqlDatabase } from './sql-database.js';

export interface SessionRow {
  /** The row's own number: names the session on the page without its token or hash. */
  id: number;
  tokenHash: string;
  createdAt: number;
  lastUsedAt: number;
}

export interface InviteRow {
  id: number;
  createdAt: number;
  expiresAt: number;
}

export class PeopleStore {
  /** SQLite's rowid names a session or an invitation; PostgreSQL has an id column for it. */
  private readonly rowId: string;

  constructor(private readonly db: SqlDatabase) {
    this.rowId = db.dialect === 'sqlite' ? 'rowid' : 'id';
  }

  /** The person's sessions still within their lifetime (`now`) and idle limit (`usedAfter`), last used first. */
  async sessionsOf(userId: string, now: number, usedAfter: number): Promise<SessionRow[]> {
    const rows = await this.db.all(
      `SELECT ${this.rowId} AS id, token_hash, created_at, last_used_at FROM sessions
       WHERE user_id = ? AND expires_at > ? AND last_used_at > ? ORDER BY last_used_at DESC, ${this.rowId} DESC`,
      [userId, now, usedAfter],
    );
    return rows.map((row) => ({
      id: row['id'] as number,
      tokenHash: row['token_hash'] as string,
      createdAt: row['created_at'] as number,
      lastUsedAt: row['last_used_at'] as number,
    }));
  }

  async deleteSession(userId: string, id: number): Promise<boolean> {
    return (
      (await this.db.run(`DELETE FROM sessions WHERE ${this.rowId} = ? AND user_id = ?`, [id, userId])) === 1
    );
  }

  deleteOtherSessions(userId: string, keepTokenHash: string): Promise<number> {
    return this.db.run('DELETE FROM sessions WHERE user_id = ? AND token_hash != ?', [userId, keepTokenHash]);
  }

  /** The new hash, and every other session of the person ended, together. */
  setPassword(userId: string, passwordHash: string, keepTokenHash: string): Promise<void> {
    return this.db.transaction(async () => {
      await this.db.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, userId]);
      await this.deleteOtherSessions(userId, keepTokenHash);
    });
  }

  async userById(userId: string): Promise<{ username: string; isOperator: boolean } | undefined> {
    const row = await this.db.get('SELECT username, is_operator FROM users WHERE id = ?', [userId]);
    return row && { username: row['username'] as string, isOperator: row['is_operator'] === 1 };
  }

  /**
   * Deletes a person who is not the operator, with their sessions, installations and all those
   * delivered (the tables' ON DELETE CASCADE), and the pairings they approved. false: no such person.
   */
  deleteUser(userId: string): Promise<boolean> {
    return this.db.transaction(async () => {
      if ((await this.db.run('DELETE FROM users WHERE id = ? AND is_operator = 0', [userId])) !== 1)
        return false;
      // Approved pairings not yet collected would otherwise make an installation for nobody.
      await this.db.run('DELETE FROM pairings WHERE approved_by = ?', [userId]);
      return true;
    });
  }

  async openInvites(now: number): Promise<InviteRow[]> {
    const rows = await this.db.all(
      `SELECT ${this.rowId} AS id, created_at, expires_at FROM invites WHERE expires_at > ? ORDER BY created_at`,
      [now],
    );
    return rows.map((row) => ({
      id: row['id'] as number,
      createdAt: row['created_at'] as number,
      expiresAt: row['expires_at'] as number,
    }));
  }

  async deleteInvite(id: number): Promise<boolean> {
    return (await this.db.run(`DELETE FROM invites WHERE ${this.rowId} = ?`, [id])) === 1;
  }
}
