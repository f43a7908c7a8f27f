import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SURFACES } from '../domain/answers.js';
import { PROVIDER_KINDS } from './registry.js';

describe('channels that carry answers back (issue 32)', () => {
  it('each is a surface an answer may come from, so a press in the chat is not refused as "This channel cannot answer."', () => {
    const listening = PROVIDER_KINDS.filter((kind) => kind.listen !== undefined).map((kind) => kind.id);
    assert.ok(listening.length >= 4, listening.join(', '));
    for (const id of listening) assert.ok((SURFACES as readonly string[]).includes(id), id);
  });
});
