import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/attention-timeline.mjs', import.meta.url));
const PICTURE = fileURLToPath(new URL('../../../docs/attention-timeline.svg', import.meta.url));

describe('docs/attention-timeline.svg', () => {
  it('is what scripts/attention-timeline.mjs draws from the built-in reminder policy', () => {
    execFileSync(process.execPath, [SCRIPT, '--check'], { stdio: 'pipe' });
    const svg = readFileSync(PICTURE, 'utf8');
    for (const label of ['reminder 1', 'reminder 2', 'push sent', 'answered; cleared', 'toast + sound'])
      assert.ok(svg.includes(label), label);
    assert.ok(!svg.includes('reminder 3'), 'the third reminder would come after the answer');
  });
});
