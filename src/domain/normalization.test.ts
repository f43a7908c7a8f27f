import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeType } from './notification-type.js';
import { normalizePriority } from './priority.js';
import { characterCount } from './text.js';

describe('normalizeType (spec "Type identifiers")', () => {
  const TABLE: [input: string, expected: string | undefined][] = [
    ['info', 'info'],
    ['  Warning ', 'warning'],
    ['input-required', 'input_required'],
    ['INPUT_REQUIRED', 'input_required'],
    ['inputrequired', 'input_required'],
    ['PermissionRequired', 'permission_required'],
    ['my-custom-type-2', 'my_custom_type_2'],
    ['a'.repeat(64), 'a'.repeat(64)],
    ['a'.repeat(65), undefined],
    ['2fast', undefined],
    ['_x', undefined],
    ['', undefined],
    ['has space', undefined],
    ['émoji', undefined],
  ];
  for (const [input, expected] of TABLE) {
    it(`reads ${JSON.stringify(input)} as ${expected ?? 'invalid'}`, () =>
      assert.equal(normalizeType(input), expected));
  }
});

describe('normalizePriority', () => {
  const TABLE: [input: string, expected: string | undefined][] = [
    ['low', 'low'],
    ['NORMAL', 'normal'],
    [' High ', 'high'],
    ['crit-ical', 'critical'],
    ['cri_tical', 'critical'],
    ['urgent', undefined],
    ['', undefined],
  ];
  for (const [input, expected] of TABLE) {
    it(`reads ${JSON.stringify(input)} as ${expected ?? 'invalid'}`, () =>
      assert.equal(normalizePriority(input), expected));
  }
});

describe('characterCount', () => {
  it('counts code points, so astral characters count once', () => {
    assert.equal(characterCount('abc'), 3);
    assert.equal(characterCount('🔔🔔'), 2);
    assert.equal(characterCount('e\u0301'), 2);
    assert.equal(characterCount('\ud800'), 1, 'a lone surrogate is one character');
  });
});
