import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** RFC 8628's advice: no vowels (no words), no 0/O or 1/I/L look-alikes. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ23456789';
const USER_CODE_LENGTH = 8;

/** A bearer secret: a prefix saying what it is (for secret scanners and people), 32 random bytes. */
export function newSecret(prefix: 'nrp_' | 'nrc_' | 'nrs_' | 'nri_' | 'nru_' | 'nrx_' | 'nrt_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function newId(prefix: string): string {
  return prefix + randomBytes(12).toString('base64url');
}

/** What the relay stores of a secret: it never needs the secret itself again. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Fixed-time comparison: both sides hashed to 32 bytes first, so neither content nor length leaks. */
export function sameSecret(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/** A user code as stored: 8 characters, no hyphen. */
export function newUserCode(): string {
  let code = '';
  for (let index = 0; index < USER_CODE_LENGTH; index++) {
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  }
  return code;
}

/** `WDJBMJHT` → `WDJB-MJHT`. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed → the stored form, or undefined when it cannot be a code at all. */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  for (const char of code) if (!USER_CODE_ALPHABET.includes(char)) return undefined;
  return code;
}
