import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STREAMS_PER_HOLDER, StreamQuota } from './stream-quota.js';

function takeAll(quota: StreamQuota, holder: string, count: number): (() => void)[] {
  return Array.from({ length: count }, () => {
    const release = quota.take(holder);
    assert.ok(release, `place ${count} for ${holder}`);
    return release;
  });
}

describe('the stream quota', () => {
  it('gives each holder 8 places, then none, and the others their own', () => {
    assert.equal(MAX_STREAMS_PER_HOLDER, 8);
    const quota = new StreamQuota();
    takeAll(quota, 'installation:i_one', 8);
    assert.equal(quota.take('installation:i_one'), undefined);
    takeAll(quota, 'installation:i_two', 8);
  });

  it('frees a place on release, once however often it is released', () => {
    const quota = new StreamQuota(2);
    const [first] = takeAll(quota, 'session:a', 2);
    first!();
    first!();
    assert.ok(quota.take('session:a'), 'the released place');
    assert.equal(quota.take('session:a'), undefined, 'a second release freed nothing more');
  });

  it('starts a holder afresh once all of its places are back', () => {
    const quota = new StreamQuota(2);
    takeAll(quota, 'session:a', 2).forEach((release) => release());
    takeAll(quota, 'session:a', 2);
    assert.equal(quota.take('session:a'), undefined);
  });
});
