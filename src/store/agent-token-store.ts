import type { Db } from './database.js';

/** An agent_tokens row in the shape the broker works with (migration 12); never the token itself. */
export interface AgentTokenRecord {
  name: string;
  tokenHash: string;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
}

interface Row {
  name: string;
  token_hash: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
}

const toRecord = (row: Row): AgentTokenRecord => ({
  name: row.name,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
});

/** All SQL of the agent tokens. Writes run inside a WriteQueue transaction in the broker. */
export class AgentTokenStore {
  readonly #insert;
  readonly #byHash;
  readonly #byName;
  readonly #all;
  readonly #touch;
  readonly #remove;

  constructor(db: Db) {
    this.#insert = db.prepare(`
      INSERT INTO agent_tokens (name, token_hash, created_at, last_used_at, expires_at)
      VALUES (@name, @tokenHash, @createdAt, @lastUsedAt, @expiresAt)`);
    this.#byHash = db.prepare<[string], Row>('SELECT * FROM agent_tokens WHERE token_hash = ?');
    this.#byName = db.prepare<[string], Row>('SELECT * FROM agent_tokens WHERE name = ?');
    this.#all = db.prepare<[], Row>('SELECT * FROM agent_tokens ORDER BY name');
    this.#touch = db.prepare<[number, string]>('UPDATE agent_tokens SET last_used_at = ? WHERE name = ?');
    this.#remove = db.prepare<[string]>('DELETE FROM agent_tokens WHERE name = ?');
  }

  insert(token: AgentTokenRecord): void {
    this.#insert.run(token);
  }

  byHash(tokenHash: string): AgentTokenRecord | undefined {
    const row = this.#byHash.get(tokenHash);
    return row && toRecord(row);
  }

  byName(name: string): AgentTokenRecord | undefined {
    const row = this.#byName.get(name);
    return row && toRecord(row);
  }

  /** By name. */
  list(): AgentTokenRecord[] {
    return this.#all.all().map(toRecord);
  }

  touch(name: string, now: number): void {
    this.#touch.run(now, name);
  }

  /** True when the token existed. */
  remove(name: string): boolean {
    return this.#remove.run(name).changes > 0;
  }
}
