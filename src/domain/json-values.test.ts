import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertStorableJson, parseStorableJson } from './json-values.js';

function refusal(value: unknown): string {
  try {
    assertStorableJson(value);
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(value)}`);
}

describe('assertStorableJson: what SQLite would not give back as sent is refused', () => {
  it('accepts ordinary JSON, including paired surrogates (emoji), null and booleans', () => {
    for (const value of [
      { title: 'ok 😀', n: 1.5, list: [null, true, 'x', { deep: ['\ud83d\ude00'] }] },
      'plain',
      0,
      null,
      [],
      '\udbff\udfff',
      'a\ud800\udc00b',
    ]) {
      assert.doesNotThrow(() => assertStorableJson(value), JSON.stringify(value));
    }
  });

  const SURROGATES: [value: unknown, message: string][] = [
    ['\udc00', 'request body must be valid Unicode text; it contains a lone surrogate'],
    [{ title: 'x\ud800' }, 'title must be valid Unicode text; it contains a lone surrogate'],
    [{ title: '\ud800x' }, 'title must be valid Unicode text; it contains a lone surrogate'],
    [{ title: 'x\udfff' }, 'title must be valid Unicode text; it contains a lone surrogate'],
    [{ title: '\udc00\ud800' }, 'title must be valid Unicode text; it contains a lone surrogate'],
    [
      { metadata: { sizes: [1, 2, '\ud83d'] } },
      'metadata.sizes[2] must be valid Unicode text; it contains a lone surrogate',
    ],
    [[{ a: '\ude00' }], '[0].a must be valid Unicode text; it contains a lone surrogate'],
    [
      { metadata: { 'k\ud800': 1 } },
      'metadata has a key that is not valid Unicode text; it contains a lone surrogate',
    ],
    [{ '\udc00': 1 }, 'request body has a key that is not valid Unicode text; it contains a lone surrogate'],
  ];
  for (const [value, message] of SURROGATES) {
    it(`refuses ${JSON.stringify(value)} naming the field`, () => assert.equal(refusal(value), message));
  }

  it('refuses numbers beyond the double range, naming the field', () => {
    assert.equal(
      refusal(JSON.parse('{"metadata":{"big":[0,1e400]}}')),
      'metadata.big[1] must be a finite number; it is beyond the range of a double',
    );
    assert.equal(
      refusal(-Infinity),
      'request body must be a finite number; it is beyond the range of a double',
    );
    assert.equal(refusal({ pid: NaN }), 'pid must be a finite number; it is beyond the range of a double');
  });

  it('walks nesting far deeper than the call stack would allow', () => {
    let deep: unknown = '\ud800';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    assert.match(
      refusal({ m: deep }),
      /^m\[0\]\[0\].* must be valid Unicode text; it contains a lone surrogate$/,
    );
  });
});

describe('parseStorableJson over request bodies as sent', () => {
  it('refuses exactly the bodies holding a lone surrogate or a number beyond a double: 20,000 random bodies', () => {
    const pieces: [text: string, refused: boolean][] = [
      ['"a"', false],
      ['"\\ud800"', true],
      ['"x\\udc00"', true],
      ['"\\ud83d\\ude00"', false],
      ['"caf\\u00e9"', false],
      ['1e308', false],
      ['1e309', true],
      ['-1e400', true],
      ['0.5', false],
      ['null', false],
      ['{"\\udfff":1}', true],
      ['{"k":[true,"\\udbff\\udfff"]}', false],
      ['1e099', false],
      [`1${'0'.repeat(250)}e99`, true],
      [`${'9'.repeat(199)}e99`, false],
      [`1${'0'.repeat(308)}`, false],
      ['1'.repeat(400), true],
      [`0.${'0'.repeat(300)}1`, false],
      [`"${'7'.repeat(400)}"`, false],
    ];
    let seed = 38;
    const next = (bound: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % bound;
    };
    for (let round = 0; round < 20_000; round++) {
      const items = Array.from({ length: 1 + next(4) }, () => pieces[next(pieces.length)]!);
      const texts = items.map(([text]) => text);
      const text =
        next(2) === 0
          ? `[${texts.join(',')}]`
          : `{${texts.map((item, index) => `"k${index}":${item}`).join(',')}}`;
      const expected = items.some(([, refused]) => refused);
      let refused = false;
      try {
        assert.deepEqual(parseStorableJson(text), JSON.parse(text));
      } catch (error) {
        assert.equal((error as Error).name, 'InvalidRequestError');
        refused = true;
      }
      assert.equal(refused, expected, text);
    }
  });
});
