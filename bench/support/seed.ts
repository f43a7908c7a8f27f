import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/store/database.js';

const STATUSES = ['active', 'dismissed', 'resolved'] as const;
const PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
const TYPES = ['info', 'build_failed', 'input_needed', 'task_done'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Tops a notify.db up to `total` rows in one transaction, straight into the schema of
 * store/migrations.ts (openDatabase migrates a fresh file). Rows are spread over the last few days
 * only, so the retention job of a restarted broker keeps them all.
 */
export function seedNotifications(
  file: string,
  total: number,
  now = Date.now(),
  /** How many of the new rows (the newest) stay active; by default a third of them, in turn. */
  activeRows?: number,
): number {
  const db = openDatabase(file);
  try {
    const existing = (db.prepare('SELECT count(*) AS n FROM notifications').get() as { n: number }).n;
    const insert = db.prepare(`
      INSERT INTO notifications (id, key, agent, agent_instance, project, type, priority, title, message,
                                 cwd, pid, status, created_at, updated_at, resolved_at, metadata)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const missing = Math.max(0, total - existing);
    db.transaction(() => {
      for (let i = 0; i < missing; i++) {
        const status =
          activeRows === undefined
            ? STATUSES[i % 3]!
            : i >= missing - activeRows
              ? 'active'
              : STATUSES[1 + (i % 2)]!;
        const created = now - 3 * DAY_MS + Math.floor((i / missing) * 3 * DAY_MS);
        const updated = created + 1000;
        insert.run(
          randomUUID(),
          i % 10 === 0 ? `seed-key-${i}` : null,
          `agent-${i % 7}`,
          i % 2 === 0 ? `instance-${i % 5}` : null,
          `project-${i % 13}`,
          TYPES[i % TYPES.length]!,
          PRIORITIES[i % PRIORITIES.length]!,
          `Seeded notification ${i}: build of the project finished`,
          `The pipeline run ${i} finished; open the log for the details of every step that ran.`,
          `/home/user/projects/project-${i % 13}`,
          10_000 + (i % 50_000),
          status,
          created,
          updated,
          status === 'resolved' ? updated : null,
          i % 4 === 0 ? JSON.stringify({ run: i, branch: 'main', attempt: 1 }) : null,
        );
      }
    })();
    return missing;
  } finally {
    db.close();
  }
}
