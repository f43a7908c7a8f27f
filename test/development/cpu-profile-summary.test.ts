import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarise } from '../../bench/support/cpu-profile.js';

const frame = (id: number, name: string, hitCount: number, children: number[] = []) => ({
  id,
  callFrame: {
    functionName: name,
    url: name.startsWith('(') ? '' : `file:///w/dist/src/${name}.js`,
    lineNumber: 0,
  },
  hitCount,
  children,
});

describe('the create profile summary (npm run bench -- create-profile)', () => {
  // root → handler → insert (6 samples) and → handler → serialize (2), idle 10: busy samples are 8.
  const profile = {
    nodes: [
      frame(1, '(root)', 0, [2, 5]),
      frame(2, 'handler', 0, [3, 4]),
      frame(3, 'insert', 6),
      frame(4, 'serialize', 2),
      frame(5, '(idle)', 10),
    ],
  };

  it('gives each function its own samples and those of what it called, idle time left out', () => {
    const { frames, busySamples } = summarise(profile);
    assert.equal(busySamples, 8);
    const byName = new Map(frames.map((entry) => [entry.name.split(' ')[0], entry]));
    assert.deepEqual(
      { self: byName.get('handler')!.self, total: byName.get('handler')!.total },
      { self: 0, total: 8 },
    );
    assert.deepEqual(
      { self: byName.get('insert')!.self, total: byName.get('insert')!.total },
      { self: 6, total: 6 },
    );
    assert.equal(byName.has('(root)'), false);
  });

  it('counts a recursive function once in its total', () => {
    const recursive = {
      nodes: [frame(1, '(root)', 0, [2]), frame(2, 'walk', 1, [3]), frame(3, 'walk', 3)],
    };
    const [walk] = summarise(recursive).frames;
    assert.deepEqual({ self: walk!.self, total: walk!.total }, { self: 4, total: 4 });
  });
});
