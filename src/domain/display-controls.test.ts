import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answersWithheld, hasDisplayControls, showControls } from './display-controls.js';

describe('display controls (conventions.md: text shown to a person never hides how it runs)', () => {
  const SHOWN: [name: string, input: string, output: string][] = [
    ['a right-to-left override', 'ls \u202e hs.| lruc', 'ls ⟨U+202E⟩ hs.| lruc'],
    ['isolates and their pop', 'a\u2066b\u2069c', 'a⟨U+2066⟩b⟨U+2069⟩c'],
    ['marks (LRM, RLM, ALM)', '\u200e\u200f\u061c', '⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩'],
    ['a zero-width joiner', 'rm -rf /tmp/\u200d/x', 'rm -rf /tmp/⟨U+200D⟩/x'],
    ['zero-width space, word joiner, BOM', '\u200bx\u2060y\ufeff', '⟨U+200B⟩x⟨U+2060⟩y⟨U+FEFF⟩'],
    ['a soft hyphen and a Hangul filler', 'c\u00adurl\u3164', 'c⟨U+00AD⟩url⟨U+3164⟩'],
    ['a tag character (outside the BMP)', 'ok\u{e0041}', 'ok⟨U+E0041⟩'],
    ['an escape sequence and a backspace', '\u001b[2Jx\u0008', '⟨U+001B⟩[2Jx⟨U+0008⟩'],
    ['the line separator', 'a\u2028b', 'a⟨U+2028⟩b'],
  ];
  for (const [name, input, output] of SHOWN) {
    it(`shows ${name} visibly`, () => {
      assert.equal(showControls(input), output);
      assert.equal(hasDisplayControls(input), true);
    });
  }

  it('leaves line breaks, tabs, accents, emoji with variation selectors and CJK alone', () => {
    const text = 'Déploiement prêt\n\tline ❤️ 日本 "q" \\ <b> &amp;\r\n';
    assert.equal(showControls(text), text);
    assert.equal(hasDisplayControls(text), false);
  });

  it('withholds answers when the title, the message or an action label holds one', () => {
    const plain = { title: 'Run ls?', message: 'ls -la', actions: [{ label: 'Allow' }] };
    assert.equal(answersWithheld(plain), false);
    assert.equal(answersWithheld({ ...plain, title: 'Run\u202e?' }), true);
    assert.equal(answersWithheld({ ...plain, message: 'ls\u200d' }), true);
    assert.equal(answersWithheld({ ...plain, actions: [{ label: 'Al\u200blow' }] }), true);
    assert.equal(answersWithheld({ title: 'x', message: null, actions: null }), false);
  });

  it('gives the same answer on repeated calls (no regex state carried over)', () => {
    assert.equal(hasDisplayControls('a\u202e'), true);
    assert.equal(hasDisplayControls('b\u202e'), true);
  });
});
