import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MASTER_KEY_BYTES } from './secret-box.js';
import { KeyringSlot } from './keyring-slot.js';

export type KeyStoreKind = 'keyring' | 'file';

/** Where the master key lives; the first answer is recorded in the database and kept. */
export interface MasterKeyDeps {
  dataDir: string;
  /** Reads the recorded choice, or records the proposed one when none is; returns the one in force. */
  choose: (proposed: KeyStoreKind) => KeyStoreKind;
  recorded: () => KeyStoreKind | undefined;
  warn: (line: string) => void;
  keyring?: KeyringSlot;
}

export interface MasterKey {
  store: KeyStoreKind;
  /** Undefined when the recorded store does not answer now (a locked keyring): secrets are unreadable. */
  key?: Buffer;
}

export const KEY_FILE_NAME = 'secrets.key';

/**
 * Finds or makes the secrets master key. With no recorded choice, the OS keyring is tried first (a
 * key is written and read back); when it does not answer, an owner-only key file in the data folder
 * is used with one WARN line. The choice is recorded so every later process uses the same store.
 */
export async function loadMasterKey(deps: MasterKeyDeps): Promise<MasterKey> {
  const keyring = deps.keyring ?? new KeyringSlot(`master-key:${deps.dataDir}`);
  let store = deps.recorded();
  // A recorded choice means a key was made before: a new one now leaves the old secrets unreadable.
  const madeBefore = store !== undefined;
  if (store === undefined) {
    const proposed: KeyStoreKind = (await keyring.readOrCreate()) ? 'keyring' : 'file';
    store = deps.choose(proposed);
  }
  if (store === 'keyring') {
    const found = await keyring.readOrCreate();
    if (found?.created && madeBefore) deps.warn(replacedKeyWarning('the OS keyring'));
    return found ? { store, key: found.key } : { store };
  }
  const file = join(deps.dataDir, KEY_FILE_NAME);
  if (!existsSync(file)) {
    deps.warn(
      madeBefore
        ? replacedKeyWarning(file)
        : `no OS keyring answered; the secrets master key is kept in ${file} (owner-only). Anyone who can read that file and the database can read provider secrets.`,
    );
  }
  return { store, key: readOrCreateKeyFile(file) };
}

function replacedKeyWarning(where: string): string {
  return `the secrets master key was gone from ${where}, so a new one was made; provider secrets stored before it cannot be read until you set them again (notifyctl providers set <id> --secret NAME).`;
}

function readOrCreateKeyFile(file: string): Buffer {
  if (!existsSync(file)) {
    // wx: a second process that raced us keeps the first key instead of replacing it.
    try {
      writeFileSync(file, randomBytes(MASTER_KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}
