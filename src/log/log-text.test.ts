import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MESSAGE_CHARACTERS, neutralize, truncate } from './log-text.js';

describe('log text', () => {
  const ESCAPED: [name: string, input: string, output: string][] = [
    ['a line feed', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['an ANSI escape sequence', '\u001b[31mred', '\\x1b[31mred'],
    ['NUL and DEL', 'a\u0000b\u007f', 'a\\x00b\\x7f'],
    ['NEL (U+0085)', 'a\u0085b', 'a\\x85b'],
    ['the line separator U+2028', 'a\u2028b', 'a\\u2028b'],
    ['the paragraph separator U+2029', 'a\u2029b', 'a\\u2029b'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['vertical tab and form feed', 'a\u000b\u000cb', 'a\\x0b\\x0cb'],
    ['a zero-width joiner', 'a\u200db', 'a\\u200db'],
    ['a tag character beyond the BMP', 'a\u{e0041}b', 'a\\u{e0041}b'],
  ];
  for (const [name, input, output] of ESCAPED) {
    it(`writes ${name} as a visible escape`, () => {
      assert.equal(neutralize(input), output);
    });
  }

  it('leaves printable text, accents and emoji alone', () => {
    assert.equal(neutralize('Déploiement prêt 🔔 "quoted" \\ back'), 'Déploiement prêt 🔔 "quoted" \\ back');
  });

  it('cuts a long message and says how much was cut', () => {
    const cut = truncate('x'.repeat(15_000));
    assert.equal(
      cut,
      `${'x'.repeat(MAX_MESSAGE_CHARACTERS)}... [${15_000 - MAX_MESSAGE_CHARACTERS} more characters not logged]`,
    );
  });

  it('never splits a surrogate pair at the cut', () => {
    const cut = truncate(`${'x'.repeat(9)}🔔tail`, 10);
    assert.equal(cut, `${'x'.repeat(9)}... [6 more characters not logged]`);
  });
});
