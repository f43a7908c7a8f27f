import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonSyntaxPlace } from './json-syntax-place.js';
import { senderLine } from './sender-line.js';
import { chooseSound } from './sound-choice.js';
import { DEFAULT_SOUNDS_BY_PRIORITY } from './sound-name.js';
import type { TypeCatalog } from './type-definition.js';

describe('chooseSound (spec "Local presentation after storage")', () => {
  const types: TypeCatalog = {
    deploy: { enabled: true, sound: 'knock' },
    quiet: { enabled: true, sound: 'none' },
    off: { enabled: false, sound: 'knock' },
    odd: { enabled: true, sound: 'Not A Name' },
  };
  const TABLE: [type: string, priority: 'low' | 'normal' | 'high' | 'critical', sound: string | undefined][] =
    [
      ['info', 'low', undefined],
      ['info', 'normal', 'chime'],
      ['info', 'high', 'ping'],
      ['info', 'critical', 'alert'],
      ['deploy', 'low', 'knock'],
      ['quiet', 'critical', undefined],
      ['off', 'high', 'ping'],
      ['odd', 'normal', 'chime'],
    ];
  for (const [type, priority, sound] of TABLE) {
    it(`a ${priority} ${type} plays ${sound ?? 'nothing'}`, () =>
      assert.equal(chooseSound({ type, priority }, types, DEFAULT_SOUNDS_BY_PRIORITY), sound));
  }
});

describe('senderLine', () => {
  it('is agent · project, or the agent alone', () => {
    assert.equal(senderLine({ agent: 'claude', project: 'notify' }), 'claude · notify');
    assert.equal(senderLine({ agent: 'claude' }), 'claude');
    assert.equal(senderLine({ agent: 'claude', project: '' }), 'claude');
  });
});

describe('jsonSyntaxPlace: where a config file is broken, never quoting it', () => {
  const place = (text: string) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return jsonSyntaxPlace(error as Error, text);
    }
    assert.fail('parsed');
  };

  it('gives line and column of the first bad character', () => {
    assert.equal(place('{"a": 1,}'), 'syntax error at line 1, column 9');
    assert.equal(place('{\n  "token": "abc",\n  oops\n}'), 'syntax error at line 3, column 3');
    assert.equal(place('{"a": 1,\n\n"b" 2}'), 'syntax error at line 3, column 5');
  });

  it('falls back to a hint when the error names no position', () => {
    assert.equal(
      jsonSyntaxPlace(new SyntaxError('Unexpected end of JSON input'), '{'),
      'an unexpected character; check quotes, commas and braces',
    );
  });
});
