import type { Route } from '../domain/delivery/route.js';
import type { Priority } from '../domain/priority.js';
import type { Db } from './database.js';

export interface RouteRecord extends Route {
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: string;
  name: string;
  provider_id: string;
  enabled: number;
  minimum_priority: Priority;
  type_id: string | null;
  project: string | null;
  agent: string | null;
  include_message: number;
  delay_seconds: number;
  send_during_quiet_hours: number;
  created_at: number;
  updated_at: number;
}

/** All SQL of routes. */
export class RouteStore {
  readonly #enabled;

  constructor(private readonly db: Db) {
    // On the notification write path: only routes whose provider is enabled can ever get an item.
    this.#enabled = db.prepare<[], Row>(`
      SELECT r.* FROM routes r JOIN providers p ON p.id = r.provider_id
      WHERE r.enabled = 1 AND p.enabled = 1 ORDER BY r.created_at, r.id`);
  }

  list(): RouteRecord[] {
    return this.db.prepare<[], Row>('SELECT * FROM routes ORDER BY created_at, id').all().map(toRecord);
  }

  /** Enabled routes of enabled providers. */
  listLive(): RouteRecord[] {
    return this.#enabled.all().map(toRecord);
  }

  get(id: string): RouteRecord | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM routes WHERE id = ?').get(id);
    return row && toRecord(row);
  }

  save(route: RouteRecord): void {
    this.db
      .prepare(
        `INSERT INTO routes (id, name, provider_id, enabled, minimum_priority, type_id, project, agent,
           include_message, delay_seconds, send_during_quiet_hours, created_at, updated_at)
         VALUES (@id, @name, @providerId, @enabled, @minimumPriority, @typeId, @project, @agent,
           @includeMessage, @delaySeconds, @sendDuringQuietHours, @createdAt, @updatedAt)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, provider_id = excluded.provider_id,
           enabled = excluded.enabled, minimum_priority = excluded.minimum_priority, type_id = excluded.type_id,
           project = excluded.project, agent = excluded.agent, include_message = excluded.include_message,
           delay_seconds = excluded.delay_seconds, send_during_quiet_hours = excluded.send_during_quiet_hours,
           updated_at = excluded.updated_at`,
      )
      .run({
        ...route,
        enabled: route.enabled ? 1 : 0,
        includeMessage: route.includeMessage ? 1 : 0,
        sendDuringQuietHours: route.sendDuringQuietHours ? 1 : 0,
        typeId: route.typeId ?? null,
        project: route.project ?? null,
        agent: route.agent ?? null,
      });
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM routes WHERE id = ?').run(id).changes > 0;
  }
}

function toRecord(row: Row): RouteRecord {
  return {
    id: row.id,
    name: row.name,
    providerId: row.provider_id,
    enabled: row.enabled === 1,
    minimumPriority: row.minimum_priority,
    ...(row.type_id !== null && { typeId: row.type_id }),
    ...(row.project !== null && { project: row.project }),
    ...(row.agent !== null && { agent: row.agent }),
    includeMessage: row.include_message === 1,
    delaySeconds: row.delay_seconds,
    ...(row.send_during_quiet_hours === 1 && { sendDuringQuietHours: true }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
