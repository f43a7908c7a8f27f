import type { Db } from './database.js';

/** All SQL of the relay event cursors: the last event id applied per relay provider. */
export class RelayCursorStore {
  readonly #get;
  readonly #put;

  constructor(db: Db) {
    this.#get = db.prepare<[string], { last_event_id: string }>(
      'SELECT last_event_id FROM relay_cursors WHERE provider_id = ?',
    );
    this.#put = db.prepare(
      `INSERT INTO relay_cursors (provider_id, last_event_id, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (provider_id) DO UPDATE SET last_event_id = excluded.last_event_id, updated_at = excluded.updated_at`,
    );
  }

  lastEventId(providerId: string): string | undefined {
    return this.#get.get(providerId)?.last_event_id;
  }

  /** Ignored when the provider was deleted meanwhile: its cursor went with it. */
  save(providerId: string, lastEventId: string, now: number): void {
    try {
      this.#put.run(providerId, lastEventId, now);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw error;
    }
  }
}
