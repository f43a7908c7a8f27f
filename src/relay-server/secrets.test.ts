import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  displayUserCode,
  hashSecret,
  newId,
  newSecret,
  newUserCode,
  normalizeUserCode,
  sameSecret,
  USER_CODE_ALPHABET,
} from './secrets.js';
import { hashPassword, verifyPassword } from './passwords.js';

describe('user codes', () => {
  it('are 8 characters of the unambiguous alphabet, shown XXXX-XXXX', () => {
    for (let index = 0; index < 200; index++) {
      const code = newUserCode();
      assert.match(code, new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
      assert.match(displayUserCode(code), /^.{4}-.{4}$/);
    }
  });

  it('are read in any case, with or without the hyphen or spaces; anything else is no code', () => {
    assert.equal(normalizeUserCode('wdjb-mjht'), 'WDJBMJHT');
    assert.equal(normalizeUserCode(' WDJB MJHT '), 'WDJBMJHT');
    assert.equal(normalizeUserCode('WDJB-MJH'), undefined);
    assert.equal(normalizeUserCode('WDJA-MJHT'), undefined, 'a vowel');
    assert.equal(normalizeUserCode('WDJ0-MJHT'), undefined, 'a zero');
  });
});

describe('secrets and passwords', () => {
  it('secrets carry their prefix and 32 random bytes; comparison holds for equal strings only', () => {
    const secret = newSecret('nrc_');
    assert.match(secret, /^nrc_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(newSecret('nrc_'), secret);
    assert.equal(sameSecret(secret, secret), true);
    assert.equal(sameSecret(secret, `${secret}x`), false);
  });

  it('a scrypt hash verifies its password only, and carries its parameters', async () => {
    const hash = await hashPassword('correct horse battery');
    assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword('correct horse battery', hash), true);
    assert.equal(await verifyPassword('correct horse batterY', hash), false);
    assert.equal(await verifyPassword('x', 'garbage'), false);
  });

  it('stores a secret as its SHA-256 in hex, the form relays before this version stored too', () => {
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(hashSecret('nrc_é'), hashSecret('nrc_é'));
    assert.notEqual(hashSecret('nrc_a'), hashSecret('nrc_b'));
  });

  it('ids carry their prefix and 12 random bytes', () => {
    const id = newId('inst_');
    assert.match(id, /^inst_[A-Za-z0-9_-]{16}$/);
    assert.notEqual(newId('inst_'), id);
  });
});
