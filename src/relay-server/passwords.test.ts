import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { DECOY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.js';

/** A hash as another version of the relay (other scrypt parameters) would have stored it. */
function hashWith(password: string, n: number, r: number, p: number, keyLength = 32): string {
  const salt = Buffer.from('0123456789abcdef');
  const key = scryptSync(password, salt, keyLength, { N: n, r, p });
  return ['scrypt', n, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('passwords', () => {
  it('verifies a password hashed with other parameters: they travel with the hash', async () => {
    const hash = hashWith('correct horse battery', 1024, 4, 2);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batter', hash), false);
  });

  it('salts every hash: the same password twice gives two hashes, both verifying', async () => {
    const [one, two] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    assert.notEqual(one, two);
    assert.equal(await verifyPassword('same password', two), true);
  });

  it('takes a password typed with composed or decomposed accents alike (NFC)', async () => {
    const composed = 'café au lait \u00e9t\u00e9';
    const decomposed = composed.normalize('NFD');
    assert.notEqual(composed, decomposed);
    assert.equal(await verifyPassword(decomposed, await hashPassword(composed)), true);
  });

  it('refuses, without failing, a stored hash that is damaged or of another scheme', async () => {
    const good = hashWith('correct horse battery', 1024, 8, 1);
    const parts = good.split('$');
    const damaged = [
      `bcrypt$${parts.slice(1).join('$')}`,
      ...[1, 2, 3, 4, 5].map((index) => parts.map((part, at) => (at === index ? '' : part)).join('$')),
      parts.slice(0, 5).join('$'),
      hashWith('correct horse battery', 1024, 8, 1, 16),
    ];
    for (const stored of damaged)
      assert.equal(await verifyPassword('correct horse battery', stored), false, stored);
  });

  it('the decoy hash (for unknown user names) costs what a real one does and verifies no guess', async () => {
    const decoy = await DECOY_HASH_PROMISE;
    const real = await hashPassword('correct horse battery');
    assert.equal(decoy.split('$').slice(0, 4).join('$'), real.split('$').slice(0, 4).join('$'));
    assert.equal(await verifyPassword('', decoy), false);
  });
});
