/** The database a relay (or a maintenance command) works on: PostgreSQL by URL, or relay.db in --data. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Target } from './args.js';
import { PostgresDatabase } from './postgres-database.js';
import type { SqlDatabase } from './sql-database.js';
import { SqliteDatabase } from './sqlite-database.js';

export function openDatabase(target: Target): SqlDatabase {
  if ('database' in target) return new PostgresDatabase(target.database);
  mkdirSync(target.data, { recursive: true, mode: 0o700 });
  return new SqliteDatabase(join(target.data, 'relay.db'));
}

/** Where the database is, for messages: never the URL's password. */
export function describeTarget(target: Target): string {
  if (!('database' in target)) return join(target.data, 'relay.db');
  const url = new URL(target.database);
  url.password = '';
  return url.toString();
}
