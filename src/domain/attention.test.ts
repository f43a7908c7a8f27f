import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { needsPerson, resolvesAfterMs, shortestResolveMs } from './attention.js';
import type { TypeCatalog } from './type-definition.js';

const HOUR = 60 * 60_000;

describe('which types wait for a person, and when news resolves itself (issue 20)', () => {
  it('by default the question and trouble types need a person and the rest are news', () => {
    const TABLE: [type: string, needs: boolean, resolvesAfter: number | undefined][] = [
      ['input_required', true, undefined],
      ['permission_required', true, undefined],
      ['blocked', true, undefined],
      ['error', true, undefined],
      ['info', false, HOUR],
      ['success', false, HOUR],
      ['warning', false, HOUR],
      ['completed', false, HOUR],
      ['deploy', false, HOUR],
    ];
    for (const [type, needs, after] of TABLE) {
      assert.equal(needsPerson(type, {}), needs, type);
      assert.equal(resolvesAfterMs(type, {}), after, type);
    }
  });

  it('an enabled definition decides; a disabled one or a non-boolean setting does not', () => {
    const catalog: TypeCatalog = {
      info: { enabled: true, needsPerson: true },
      error: { enabled: true, needsPerson: false },
      blocked: { enabled: false, needsPerson: false },
      warning: { enabled: true, needsPerson: 'yes' },
    };
    assert.equal(needsPerson('info', catalog), true);
    assert.equal(resolvesAfterMs('info', catalog), undefined);
    assert.equal(needsPerson('error', catalog), false);
    assert.equal(resolvesAfterMs('error', catalog), HOUR);
    assert.equal(needsPerson('blocked', catalog), true);
    assert.equal(needsPerson('warning', catalog), false);
  });

  it('resolveAfterMinutes sets the time, 0 means never, and an invalid value falls back', () => {
    const catalog: TypeCatalog = {
      quick: { enabled: true, resolveAfterMinutes: 5 },
      never: { enabled: true, resolveAfterMinutes: 0 },
      half: { enabled: true, resolveAfterMinutes: 0.5 },
      asking: { enabled: true, needsPerson: true, resolveAfterMinutes: 10 },
      negative: { enabled: true, resolveAfterMinutes: -1 },
      infinite: { enabled: true, resolveAfterMinutes: Infinity },
      text: { enabled: true, resolveAfterMinutes: '5' },
      off: { enabled: false, resolveAfterMinutes: 5 },
    };
    assert.equal(resolvesAfterMs('quick', catalog), 5 * 60_000);
    assert.equal(resolvesAfterMs('never', catalog), undefined);
    assert.equal(resolvesAfterMs('half', catalog), 30_000);
    assert.equal(resolvesAfterMs('asking', catalog), 10 * 60_000);
    assert.equal(resolvesAfterMs('negative', catalog), HOUR);
    assert.equal(resolvesAfterMs('infinite', catalog), HOUR);
    assert.equal(resolvesAfterMs('text', catalog), HOUR);
    assert.equal(resolvesAfterMs('off', catalog), HOUR);
  });

  it('the shortest resolve time is the default hour unless a configured type is quicker', () => {
    assert.equal(shortestResolveMs({}), HOUR);
    assert.equal(shortestResolveMs({ slow: { enabled: true, resolveAfterMinutes: 120 } }), HOUR);
    assert.equal(shortestResolveMs({ never: { enabled: true, resolveAfterMinutes: 0 } }), HOUR);
    assert.equal(
      shortestResolveMs({
        a: { enabled: true, resolveAfterMinutes: 30 },
        b: { enabled: true, resolveAfterMinutes: 2 },
        c: { enabled: true, resolveAfterMinutes: 0 },
      }),
      2 * 60_000,
    );
  });
});
