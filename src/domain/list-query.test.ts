import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseListQuery } from './list-query.js';

function refusal(query: Record<string, string | string[] | undefined>): string {
  try {
    parseListQuery(query);
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(query)}`);
}

describe('parseListQuery (spec "GET /v1/notifications")', () => {
  it('lists up to 100 with no filter when the query is empty', () => {
    assert.deepEqual(parseListQuery({}), { limit: 100 });
  });

  const LIMITS: [given: string, limit: number][] = [
    ['', 100],
    ['  ', 100],
    ['1', 1],
    ['0', 1],
    ['-5', 1],
    ['+7', 7],
    [' 42 ', 42],
    ['500', 500],
    ['501', 500],
    ['99999999999999999999', 500],
  ];
  for (const [given, limit] of LIMITS) {
    it(`reads limit ${JSON.stringify(given)} as ${limit} (clamped to 1-500)`, () =>
      assert.equal(parseListQuery({ limit: given }).limit, limit));
  }

  it('refuses a limit that is not an integer', () => {
    for (const limit of ['ten', '1.5', '1e3', '5x', '--1']) {
      assert.equal(refusal({ limit }), 'limit must be an integer');
    }
  });

  it('takes the last of a repeated parameter', () => {
    assert.deepEqual(parseListQuery({ limit: ['3', '7'], project: ['a', 'b'] }), { limit: 7, project: 'b' });
  });

  it('reads status ignoring case and spaces, and refuses an unknown one', () => {
    assert.equal(parseListQuery({ status: ' Dismissed ' }).status, 'dismissed');
    assert.equal(refusal({ status: 'open' }), 'status must be one of active, dismissed, resolved');
  });

  const UNRESOLVED: [given: string, status: string | undefined][] = [
    ['', 'active'],
    ['true', 'active'],
    [' TRUE ', 'active'],
    ['1', 'active'],
    ['yes', 'active'],
    ['false', 'resolved'],
    ['0', 'resolved'],
    ['No', 'resolved'],
  ];
  for (const [given, status] of UNRESOLVED) {
    it(`unresolved=${JSON.stringify(given)} with status=resolved gives status ${status}`, () =>
      assert.equal(parseListQuery({ status: 'resolved', unresolved: given }).status, status));
  }

  it('refuses an unresolved that is not a boolean', () => {
    assert.equal(refusal({ unresolved: 'maybe' }), 'unresolved must be true or false');
  });

  it('normalizes type and refuses one that is not an identifier', () => {
    assert.equal(parseListQuery({ type: ' Input-Required ' }).type, 'input_required');
    assert.equal(
      refusal({ type: '9lives' }),
      'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
    );
  });

  it('trims project, agent and key, and ignores them when blank', () => {
    assert.deepEqual(parseListQuery({ project: ' notify ', agent: ' claude ', key: ' k1 ' }), {
      limit: 100,
      project: 'notify',
      agent: 'claude',
      key: 'k1',
    });
    assert.deepEqual(parseListQuery({ project: ' ', agent: '', key: '  ' }), { limit: 100 });
  });
});
