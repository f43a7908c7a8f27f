import type { Db } from './database.js';

/**
 * Choices made once and then kept (e.g. where the secrets master key lives). The first writer wins:
 * a second process that proposes something else reads back the recorded value instead.
 */
export function recordChoice(db: Db, name: string, proposed: string): string {
  db.prepare('INSERT INTO choices (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(
    name,
    proposed,
  );
  return db.prepare<[string], { value: string }>('SELECT value FROM choices WHERE name = ?').get(name)!.value;
}

export function readChoice(db: Db, name: string): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM choices WHERE name = ?').get(name)?.value;
}
