import type { Db } from './database.js';

/** A web_sessions row in the shape the broker works with (migration 6). */
export interface WebSessionRecord {
  id: string;
  secretHash: string;
  tokenFingerprint: string;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

interface Row {
  id: string;
  secret_hash: string;
  token_fingerprint: string;
  user_agent: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

const toRecord = (row: Row): WebSessionRecord => ({
  id: row.id,
  secretHash: row.secret_hash,
  tokenFingerprint: row.token_fingerprint,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
});

/** All SQL of the web page's sessions. Writes run inside a WriteQueue transaction in the broker. */
export class WebSessionStore {
  readonly #insert;
  readonly #bySecret;
  readonly #all;
  readonly #touch;
  readonly #remove;
  readonly #removeAll;
  readonly #removeOtherTokens;
  readonly #removeEnded;

  constructor(db: Db) {
    this.#insert = db.prepare(`
      INSERT INTO web_sessions (id, secret_hash, token_fingerprint, user_agent, created_at, last_seen_at, expires_at)
      VALUES (@id, @secretHash, @tokenFingerprint, @userAgent, @createdAt, @lastSeenAt, @expiresAt)`);
    this.#bySecret = db.prepare<[string], Row>('SELECT * FROM web_sessions WHERE secret_hash = ?');
    this.#all = db.prepare<[], Row>('SELECT * FROM web_sessions ORDER BY created_at DESC, id');
    this.#touch = db.prepare<[number, string]>('UPDATE web_sessions SET last_seen_at = ? WHERE id = ?');
    this.#remove = db.prepare<[string]>('DELETE FROM web_sessions WHERE id = ?');
    this.#removeAll = db.prepare('DELETE FROM web_sessions');
    this.#removeOtherTokens = db.prepare<[string]>('DELETE FROM web_sessions WHERE token_fingerprint <> ?');
    this.#removeEnded = db.prepare<[number, number]>(
      'DELETE FROM web_sessions WHERE expires_at <= ? OR last_seen_at <= ?',
    );
  }

  insert(session: WebSessionRecord): void {
    this.#insert.run(session);
  }

  bySecretHash(secretHash: string): WebSessionRecord | undefined {
    const row = this.#bySecret.get(secretHash);
    return row && toRecord(row);
  }

  /** Newest first. */
  list(): WebSessionRecord[] {
    return this.#all.all().map(toRecord);
  }

  touch(id: string, now: number): void {
    this.#touch.run(now, id);
  }

  /** True when the session existed. */
  remove(id: string): boolean {
    return this.#remove.run(id).changes > 0;
  }

  removeAll(): number {
    return this.#removeAll.run().changes;
  }

  /** Ends the sessions made under another token than the one with this fingerprint. */
  removeOtherTokens(tokenFingerprint: string): number {
    return this.#removeOtherTokens.run(tokenFingerprint).changes;
  }

  /** Deletes the sessions past their absolute end (`now`) or idle since `idleCutoff`. */
  removeEnded(now: number, idleCutoff: number): number {
    return this.#removeEnded.run(now, idleCutoff).changes;
  }
}
