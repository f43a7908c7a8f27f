import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodeFloorMessage } from '../../src/cli/runtime/node-floor.js';

const ROOT = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), 'utf8');
const PROGRAMS = JSON.parse(read('scripts/test-programs.json')) as Record<string, string>;
const PACKAGES = [...new Set(Object.values(PROGRAMS))];

/** The system programs the suite checks for before it starts, where a developer and CI get them. */
describe('the system programs the tests need', () => {
  it("are all in the README's one apt-get line, and nothing else is", () => {
    const line = /sudo apt-get install ([a-z0-9 .+-]+)\n/.exec(read('README.md'));
    assert.ok(line, 'the README has the apt-get line');
    assert.deepEqual(line[1]!.split(' ').sort(), [...PACKAGES].sort());
  });

  it('are all installed by .ci/run', () => {
    const ci = read('.ci/run');
    const install = /apt-get install -y -qq --no-install-recommends \\\n([\s\S]*?)>\/dev\/null/.exec(ci);
    assert.ok(install, '.ci/run installs with apt-get');
    const installed = install[1]!.split(/[\s\\]+/).filter(Boolean);
    assert.deepEqual(
      PACKAGES.filter((pkg) => !installed.includes(pkg)),
      [],
    );
  });

  it('stop the suite before it starts when missing, with what is missing and the line that brings it', () => {
    const result = spawnSync(process.execPath, [new URL('scripts/test-preflight.mjs', ROOT).pathname], {
      env: { PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      `The tests need programs that are not installed: ${Object.keys(PROGRAMS).join(', ')}.\n` +
        `Install them with: sudo apt-get install ${PACKAGES.join(' ')}\n`,
    );
  });
});

describe('npm test on an older Node.js', () => {
  it('stops in the preflight, before the build, with the line every Notify program prints there', () => {
    const script = (JSON.parse(read('package.json')) as { scripts: { test: string } }).scripts.test;
    assert.match(script, /^node scripts\/test-preflight\.mjs && npm run build && /);
    const folder = mkdtempSync(join(tmpdir(), 'notify-preflight-'));
    try {
      // The Node.js reports itself as 20 (the only way without an old Node.js on the machine).
      const preload = join(folder, 'old-node.cjs');
      writeFileSync(
        preload,
        `Object.defineProperty(process, 'version', { value: 'v20.20.2' });
Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.20.2' } });`,
      );
      const result = spawnSync(
        process.execPath,
        ['--require', preload, new URL('scripts/test-preflight.mjs', ROOT).pathname],
        { env: { PATH: process.env['PATH'] }, encoding: 'utf8' },
      );
      assert.equal(result.status, 1);
      assert.equal(result.stderr, `${nodeFloorMessage('v20.20.2')}\n`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
