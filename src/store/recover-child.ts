import { openDatabase } from './database.js';
import { copyReadableTables } from './recover-copy.js';
import type { RecoveryReply } from './recover.js';
import { schemaCatalog } from './schema-catalog.js';

/**
 * The recovery's reading, in a process of its own that `recoverDatabase` kills at its time limit:
 * SQLite's calls are synchronous and nothing inside this process could stop one that never ends.
 * Arguments: the damaged file, then the new database to fill.
 */
function run(source: string, target: string): RecoveryReply {
  try {
    const db = openDatabase(target);
    try {
      return { result: copyReadableTables(source, db, schemaCatalog()) };
    } finally {
      db.close();
    }
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const [source, target] = process.argv.slice(2);
process.send!(run(source!, target!), () => process.disconnect());
