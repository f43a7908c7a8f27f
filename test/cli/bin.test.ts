import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { NOTIFY } from '../support/notify-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

describe('the notify bin', () => {
  it('is the bundle dist/notify.cjs, which the tests run', () => {
    assert.equal(PACKAGE.bin['notify'], 'dist/notify.cjs');
    assert.equal(NOTIFY, resolve(ROOT, PACKAGE.bin['notify']!));
  });

  it('runs on its own, without the compiled sources or node_modules beside it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notify-bin-'));
    try {
      copyFileSync(NOTIFY, join(dir, 'notify.cjs'));
      const result = spawnSync(process.execPath, [join(dir, 'notify.cjs'), '--version'], {
        cwd: dir,
        env: { PATH: process.env['PATH'], HOME: dir },
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `notify ${PACKAGE.version}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is what docs/cli.md tells users to run', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    assert.ok(docs.includes(`\`${PACKAGE.bin['notify']}\``), 'names the bin file');
    assert.ok(docs.includes(`node ${PACKAGE.bin['notify']} --version`), 'shows how to run it with node');
    assert.ok(docs.includes('npm link'), 'says how to put notify on the PATH');
  });
});
