import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../', import.meta.url));

/** Every compiled test file and test helper. */
function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return path.endsWith('.js') && (path.includes('/test/') || path.endsWith('.test.js')) ? [path] : [];
  });
}

/**
 * The suite runs where a developer's own notifyd holds 47821: a test that binds it fails there, and one
 * that sends there hands a token to whatever listens. Tests listen on port 0 and talk to what they started.
 */
describe('the tests and the real port', () => {
  it('no test listens on, or sends to, port 47821', () => {
    const touching = [...testFiles(join(DIST, 'test')), ...testFiles(join(DIST, 'src'))].filter((file) =>
      /\b(?:listen|startFakeBrokerOn)\(\s*(?:47821|DEFAULT_PORT)\b/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(
      touching.map((file) => file.slice(DIST.length)),
      [],
    );
  });
});
