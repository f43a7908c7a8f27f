import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { writeConfigAtomically } from './config-file.js';
import { attributesOf, replaceFile } from './replace-file.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-replace-'));
/** Another user's uid when the tests run as root; ours otherwise. */
const owner = process.getuid?.() === 0 ? 65534 : process.getuid!();
const attributes = (path: string) => {
  const stat = statSync(path);
  return { mode: stat.mode & 0o777, uid: stat.uid, gid: stat.gid };
};

describe('replaceFile', () => {
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps the mode and owner of the file it replaces', () => {
    const file = join(folder, 'unit.service');
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o640);
    chownSync(file, owner, owner);
    replaceFile(file, 'new\n', attributesOf(file));
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    assert.deepEqual(attributes(file), { mode: 0o640, uid: owner, gid: owner });
  });

  it('writes config.json 0600 whatever its mode was, keeping its owner', () => {
    const file = join(folder, 'config.json');
    writeFileSync(file, '{}\n');
    chmodSync(file, 0o644);
    chownSync(file, owner, owner);
    writeConfigAtomically(file, { port: 47821 });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { port: 47821 });
    assert.deepEqual(attributes(file), { mode: 0o600, uid: owner, gid: owner });
  });
});
