import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A secret that cannot be decrypted: the key is missing or wrong, or the ciphertext was altered. */
export class SecretsUnreadableError extends Error {
  override name = 'SecretsUnreadableError';
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const MASTER_KEY_BYTES = 32;

/**
 * AES-256-GCM with a fresh 96-bit nonce per value. The sealed form is version (1 byte), nonce, tag,
 * ciphertext; `context` (the provider id and setting name) is bound as associated data, so a sealed
 * value copied to another provider or setting does not open.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== MASTER_KEY_BYTES) throw new Error('the secrets master key must be 32 bytes');
  }

  seal(plaintext: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer, context: string): string {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
      throw new SecretsUnreadableError('unknown sealed secret format');
    }
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretsUnreadableError('the secret does not open with the master key');
    }
  }
}
