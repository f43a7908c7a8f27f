import type { SettingValues } from '../delivery/provider.js';
import type { Db } from './database.js';

/** The outcome of a provider's latest attempt, kept for its health in the API. */
export interface LastResult {
  outcome: 'delivered' | 'retry' | 'reject';
  reason?: string;
  status?: number;
  at: number;
  durationMs: number;
}

export interface ProviderRecord {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  /** Settings that are not secret; secret ones live sealed in provider_secrets. */
  settings: SettingValues;
  /** Names of the secret settings that have a value. */
  secretNames: string[];
  createdAt: number;
  updatedAt: number;
  lastResult?: LastResult;
}

interface Row {
  id: string;
  kind: string;
  name: string;
  enabled: number;
  settings: string;
  created_at: number;
  updated_at: number;
  last_result: string | null;
}

/** All SQL of providers and their sealed secrets. */
export class ProviderStore {
  readonly #byId;
  readonly #secretNames;
  readonly #sealed;
  readonly #recordResult;

  constructor(private readonly db: Db) {
    // Prepared once: the dispatcher reads a provider and records a result on every attempt.
    this.#byId = db.prepare<[string], Row>('SELECT * FROM providers WHERE id = ?');
    this.#secretNames = db.prepare<[string], { name: string }>(
      'SELECT name FROM provider_secrets WHERE provider_id = ? ORDER BY name',
    );
    this.#sealed = db.prepare<[string], { name: string; sealed: Buffer }>(
      'SELECT name, sealed FROM provider_secrets WHERE provider_id = ?',
    );
    this.#recordResult = db.prepare('UPDATE providers SET last_result = ? WHERE id = ?');
  }

  /** Whether any provider is enabled: the delivery thread is started only then. */
  hasEnabled(): boolean {
    return this.db.prepare('SELECT 1 FROM providers WHERE enabled = 1 LIMIT 1').get() !== undefined;
  }

  list(): ProviderRecord[] {
    const rows = this.db.prepare<[], Row>('SELECT * FROM providers ORDER BY created_at, id').all();
    return rows.map((row) => this.toRecord(row));
  }

  get(id: string): ProviderRecord | undefined {
    const row = this.#byId.get(id);
    return row && this.toRecord(row);
  }

  /** What an attempt needs: kind, state and plain settings, without the secret names (one query). */
  forDelivery(id: string): Pick<ProviderRecord, 'id' | 'kind' | 'enabled' | 'settings'> | undefined {
    const row = this.#byId.get(id);
    return (
      row && {
        id: row.id,
        kind: row.kind,
        enabled: row.enabled === 1,
        settings: JSON.parse(row.settings) as SettingValues,
      }
    );
  }

  /** Inserts or replaces the provider and, in the same transaction, the sealed secrets given. */
  save(
    record: Omit<ProviderRecord, 'secretNames' | 'lastResult'>,
    sealed: ReadonlyMap<string, Buffer>,
  ): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO providers (id, kind, name, enabled, settings, created_at, updated_at)
           VALUES (@id, @kind, @name, @enabled, @settings, @createdAt, @updatedAt)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, enabled = excluded.enabled,
             settings = excluded.settings, updated_at = excluded.updated_at`,
        )
        .run({ ...record, enabled: record.enabled ? 1 : 0, settings: JSON.stringify(record.settings) });
      const put = this.db.prepare(
        `INSERT INTO provider_secrets (provider_id, name, sealed) VALUES (?, ?, ?)
         ON CONFLICT (provider_id, name) DO UPDATE SET sealed = excluded.sealed`,
      );
      for (const [name, value] of sealed) put.run(record.id, name, value);
    })();
  }

  removeSecrets(id: string, names: readonly string[]): void {
    const remove = this.db.prepare('DELETE FROM provider_secrets WHERE provider_id = ? AND name = ?');
    for (const name of names) remove.run(id, name);
  }

  setEnabled(id: string, enabled: boolean, now: number): boolean {
    return (
      this.db
        .prepare('UPDATE providers SET enabled = ?, updated_at = ? WHERE id = ?')
        .run(enabled ? 1 : 0, now, id).changes > 0
    );
  }

  /**
   * Deletes the provider with its secrets and routes (cascade); its waiting outbox items dead-letter
   * with `provider_deleted`, visibly, instead of waiting forever.
   */
  delete(id: string, now: number): boolean {
    return this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE outbox SET state = 'dead', last_reason = 'provider_deleted', updated_at = ?
           WHERE provider_id = ? AND state = 'pending'`,
        )
        .run(now, id);
      return this.db.prepare('DELETE FROM providers WHERE id = ?').run(id).changes > 0;
    })();
  }

  sealedSecrets(id: string): Map<string, Buffer> {
    const rows = this.#sealed.all(id);
    return new Map(rows.map((row) => [row.name, row.sealed]));
  }

  recordResult(id: string, result: LastResult): void {
    this.#recordResult.run(JSON.stringify(result), id);
  }

  private toRecord(row: Row): ProviderRecord {
    const secretNames = this.#secretNames.all(row.id).map((secret) => secret.name);
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      enabled: row.enabled === 1,
      settings: JSON.parse(row.settings) as SettingValues,
      secretNames,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      ...(row.last_result !== null && { lastResult: JSON.parse(row.last_result) as LastResult }),
    };
  }
}
