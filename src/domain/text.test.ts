import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { characterCount, utf8ByteLength } from './text.js';

describe('characterCount: the limits count characters as a person does', () => {
  it('counts an astral character (a surrogate pair) as one, and each lone surrogate as one', () => {
    const cases: [string, number][] = [
      ['', 0],
      ['abc', 3],
      ['é', 1],
      ['😀', 1],
      ['a😀b😀', 4],
      ['\ud83d', 1],
      ['\ude00', 1],
      ['\ud83d\ud83d', 2],
      ['\ude00\ud83d', 2],
      ['\ud83dx', 2],
      ['x\ud83d', 2],
      ['\udbff\udfff', 1],
      ['\ud800\udc00', 1],
      ['\ud7ff\udc00', 2],
      ['\udc00\udc00', 2],
      ['\ud800\ue000', 2],
    ];
    for (const [text, count] of cases) assert.equal(characterCount(text), count, JSON.stringify(text));
  });

  it('measures bytes as UTF-8', () => {
    assert.deepEqual([utf8ByteLength('a'), utf8ByteLength('é'), utf8ByteLength('😀')], [1, 2, 4]);
  });
});
