import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { optionText, optionValues, parseArgs, type FlagTable } from '../../src/cli/notify/args.js';

const TABLE: FlagTable = {
  '--name': { kind: 'value', name: 'name' },
  '--set': { kind: 'repeated', name: 'set' },
  '--json': { kind: 'switch', name: 'json' },
};
const parse = (argv: string[]) => parseArgs(argv, TABLE, (flag) => `unknown ${flag}`);

describe('parseArgs', () => {
  it('keeps every value of a repeated option in order, and only the last of a value option', () => {
    const parsed = parse(['--set', 'a=1', 'x', '--name', 'one', '--set=b=2', '--name=two', '--json']);
    assert.deepEqual(optionValues(parsed, 'set'), ['a=1', 'b=2']);
    assert.equal(optionText(parsed, 'name'), 'two');
    assert.equal(parsed.options.has('set'), false);
    assert.deepEqual(parsed.positionals, ['x']);
  });

  it('has no values for a repeated option that was not given', () => {
    assert.deepEqual(optionValues(parse(['--json']), 'set'), []);
  });

  it('takes the next word as the value of a repeated option, even when it starts with a dash', () => {
    assert.deepEqual(optionValues(parse(['--set', '-x']), 'set'), ['-x']);
  });

  it('refuses a repeated option without a value', () => {
    assert.throws(() => parse(['--set']), { message: '--set requires a value.' });
  });
});
