/**
 * Loads the secrets master key the way the broker does (recorded choice in the database, keyring
 * first, key file otherwise) for the data folder in argv[2], and prints what it found as one JSON line:
 * the store and a SHA-256 of the key, never the key.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { loadMasterKey, type KeyStoreKind } from '../../src/secrets/master-key.js';
import { readChoice, recordChoice } from '../../src/store/choices-store.js';
import { openDatabase } from '../../src/store/database.js';

const dataDir = process.argv[2]!;
const db = openDatabase(join(dataDir, 'notify.db'));
const warnings: string[] = [];
const master = await loadMasterKey({
  dataDir,
  recorded: () => readChoice(db, 'secrets.master_key_store') as KeyStoreKind | undefined,
  choose: (proposed) => recordChoice(db, 'secrets.master_key_store', proposed) as KeyStoreKind,
  warn: (line) => warnings.push(line),
});
db.close();
console.log(
  JSON.stringify({
    store: master.store,
    keyHash: master.key ? createHash('sha256').update(master.key).digest('hex') : null,
    warnings,
  }),
);
