import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite binding for a Node.js offering Node-API `napiVersion`. better-sqlite3 13 is built on
 * Node-API 10, which Node.js 20, 22.0-22.13 and 23.0-23.5 lack (on Node.js 20 it crashes at the first
 * statement); 12 is built on node::ObjectWrap, whose destructor aborts the process on Node.js 24.19
 * and later when a statement is garbage collected (`(env) != nullptr` in
 * node::RemoveEnvironmentCleanupHook). So a Node.js without Node-API 10 loads 12, installed as the
 * optional dependency `better-sqlite3-node20`, and one with it loads 13. Chosen by Node-API version,
 * not by major: Node-API 10 came in 22.14, so 22.0-22.13 need 12 too.
 */
export function sqliteModuleFor(napiVersion: string | undefined): string {
  return Number(napiVersion) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

export const SQLITE_MODULE = sqliteModuleFor(process.versions.napi);

const Database = createRequire(import.meta.url)(SQLITE_MODULE) as typeof BetterSqlite3;
export default Database;

export type Db = BetterSqlite3.Database;
