import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIdGenerator } from './ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createIdGenerator', () => {
  it('makes UUIDv7 ids that sort in creation order, also within one millisecond', () => {
    const next = createIdGenerator(() => 1_700_000_000_000);
    const ids = Array.from({ length: 5000 }, () => next());
    for (const id of ids) assert.match(id, UUID_V7);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('keeps ids increasing when the clock steps back', () => {
    let now = 2_000_000_000_000;
    const next = createIdGenerator(() => now);
    const first = next();
    now -= 60_000;
    assert.ok(next() > first);
  });

  it('encodes the creation time in the first 48 bits', () => {
    const next = createIdGenerator(() => 0x0123456789ab);
    assert.ok(next().startsWith('01234567-89ab-'));
  });
});
