import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import type { TestPostgres } from './postgres.js';

/** The connections open on `database` (a URL on the cluster), as the server counts them; the asking one left out. */
export async function connectionsTo(postgres: Pick<TestPostgres, 'url'>, database: string): Promise<number> {
  const observer = new PostgresDatabase(postgres.url);
  try {
    const row = await observer.get(
      'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()',
      [new URL(database).pathname.slice(1)],
    );
    return Number(row!['n']);
  } finally {
    await observer.close();
  }
}

const SETTLE_MS = 5000;

/**
 * The connections still open on `database` once closed ones are gone: the server ends a connection's
 * process a moment after its client hangs up, so a count taken at once can see one that is closing
 * (a CI run did). Waits up to five seconds for none; a connection left open is still counted.
 */
export async function connectionsLeftTo(
  postgres: Pick<TestPostgres, 'url'>,
  database: string,
): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const open = await connectionsTo(postgres, database);
    if (open === 0 || Date.now() > deadline) return open;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
