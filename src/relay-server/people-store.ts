/** The SQL of people management: a person's sessions, their password, removing them, open invitations. */
import type Database from 'better-sqlite3';

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

type Row = Record<string, unknown>;

export class PeopleStore {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      sessionsOf: db.prepare(
        `SELECT rowid AS id, token_hash, created_at, last_used_at FROM sessions
         WHERE user_id = ? AND expires_at > ? AND last_used_at > ? ORDER BY last_used_at DESC, rowid DESC`,
      ),
      deleteSession: db.prepare('DELETE FROM sessions WHERE rowid = ? AND user_id = ?'),
      deleteOtherSessions: db.prepare('DELETE FROM sessions WHERE user_id = ? AND token_hash != ?'),
      setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
      userById: db.prepare('SELECT username, is_operator FROM users WHERE id = ?'),
      // Approved pairings not yet collected would otherwise make an installation for nobody.
      deletePairingsOf: db.prepare('DELETE FROM pairings WHERE approved_by = ?'),
      deleteUser: db.prepare('DELETE FROM users WHERE id = ? AND is_operator = 0'),
      openInvites: db.prepare(
        'SELECT rowid AS id, created_at, expires_at FROM invites WHERE expires_at > ? ORDER BY created_at',
      ),
      deleteInvite: db.prepare('DELETE FROM invites WHERE rowid = ?'),
    };
  }

  /** The person's sessions still within their lifetime (`now`) and idle limit (`usedAfter`), last used first. */
  sessionsOf(userId: string, now: number, usedAfter: number): SessionRow[] {
    return (this.statements.sessionsOf.all(userId, now, usedAfter) as Row[]).map((row) => ({
      id: row['id'] as number,
      tokenHash: row['token_hash'] as string,
      createdAt: row['created_at'] as number,
      lastUsedAt: row['last_used_at'] as number,
    }));
  }

  deleteSession(userId: string, id: number): boolean {
    return this.statements.deleteSession.run(id, userId).changes === 1;
  }

  deleteOtherSessions(userId: string, keepTokenHash: string): number {
    return this.statements.deleteOtherSessions.run(userId, keepTokenHash).changes;
  }

  /** The new hash, and every other session of the person ended, together. */
  setPassword(userId: string, passwordHash: string, keepTokenHash: string): void {
    this.db.transaction(() => {
      this.statements.setPassword.run(passwordHash, userId);
      this.statements.deleteOtherSessions.run(userId, keepTokenHash);
    })();
  }

  userById(userId: string): { username: string; isOperator: boolean } | undefined {
    const row = this.statements.userById.get(userId) as Row | undefined;
    return row && { username: row['username'] as string, isOperator: row['is_operator'] === 1 };
  }

  /**
   * Deletes a person who is not the operator, with their sessions, installations and all those
   * delivered (the tables' ON DELETE CASCADE), and the pairings they approved. false: no such person.
   */
  deleteUser(userId: string): boolean {
    return this.db.transaction(() => {
      if (this.statements.deleteUser.run(userId).changes !== 1) return false;
      this.statements.deletePairingsOf.run(userId);
      return true;
    })();
  }

  openInvites(now: number): InviteRow[] {
    return (this.statements.openInvites.all(now) as Row[]).map((row) => ({
      id: row['id'] as number,
      createdAt: row['created_at'] as number,
      expiresAt: row['expires_at'] as number,
    }));
  }

  deleteInvite(id: number): boolean {
    return this.statements.deleteInvite.run(id).changes === 1;
  }
}
