import { randomBytes } from 'node:crypto';
import { MASTER_KEY_BYTES } from './secret-box.js';

const SERVICE = 'notify';
const ANSWER_WITHIN_MS = 3000;

/**
 * One entry in the OS keyring (Secret Service, Keychain, Credential Manager) through @napi-rs/keyring,
 * loaded only when first used, so a machine without a keyring costs nothing but a failed probe.
 */
export class KeyringSlot {
  constructor(private readonly account: string) {}

  /**
   * The stored key, or a new one written and read back (`created`); undefined when no keyring answers.
   */
  async readOrCreate(): Promise<{ key: Buffer; created: boolean } | undefined> {
    try {
      const { AsyncEntry } = await import('@napi-rs/keyring');
      const entry = new AsyncEntry(SERVICE, this.account);
      const signal = AbortSignal.timeout(ANSWER_WITHIN_MS);
      const existing = await entry.getPassword(signal);
      if (existing) return valid(existing, false);
      await entry.setPassword(randomBytes(MASTER_KEY_BYTES).toString('base64'), signal);
      const stored = await entry.getPassword(signal);
      return stored ? valid(stored, true) : undefined;
    } catch {
      return undefined;
    }
  }
}

function valid(encoded: string, created: boolean): { key: Buffer; created: boolean } | undefined {
  const key = Buffer.from(encoded, 'base64');
  return key.length === MASTER_KEY_BYTES ? { key, created } : undefined;
}
