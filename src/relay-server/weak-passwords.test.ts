import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTooSimple } from './weak-passwords.js';

describe('isTooSimple', () => {
  for (const password of [
    'aaaaaaaaaa',
    '1234567890',
    '7890123456',
    '9876543210',
    'abcdefghij',
    'ABCDEFGHIJK',
    'abababababab',
    'abcabcabcab',
    'qwertyuiop',
    'Password123',
    'correct horse battery staple',
    'operator-ada',
  ]) {
    it(`refuses ${password}`, () => assert.equal(isTooSimple(password, 'operator-ada'), true));
  }
  for (const password of ['correct horse battery', 'a long enough pass', '1234567899', 'abcdefghik']) {
    it(`takes ${password}`, () => assert.equal(isTooSimple(password, 'ada'), false));
  }
});
