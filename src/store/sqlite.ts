import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite binding for the running Node.js. better-sqlite3 13 is built on Node-API 10, which Node.js
 * 20 lacks (it crashes there at the first statement); 12 is built on node::ObjectWrap, whose destructor
 * aborts the process on Node.js 24.19 and later when a statement is garbage collected
 * (`(env) != nullptr` in node::RemoveEnvironmentCleanupHook). So Node.js 20 loads 12, installed as the
 * optional dependency `better-sqlite3-node20`, and every later Node.js loads 13.
 */
export const SQLITE_MODULE =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

const Database = createRequire(import.meta.url)(SQLITE_MODULE) as typeof BetterSqlite3;
export default Database;

export type Db = BetterSqlite3.Database;
