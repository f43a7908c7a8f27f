import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase } from './database.js';
import { recoverDatabase } from './recover.js';

const NOW = new Date(Date.UTC(2026, 10, 25, 16, 30, 5, 123));
const MOVED = 'notify.db.damaged-2026-11-25T16-30-05-123Z';

describe('recoverDatabase: a new file in place, the old one kept beside it', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-recover-'));
    file = join(dir, 'notify.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the rows, moves the old file aside untouched, and reports per table', async () => {
    const db = openDatabase(file);
    db.exec("INSERT INTO choices VALUES ('masterKey', 'keyring')");
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = readFileSync(file);
    const report = await recoverDatabase(file, 20_000, NOW);
    assert.equal(report.damagedCopy, join(dir, MOVED));
    assert.deepEqual(readFileSync(report.damagedCopy), before);
    assert.deepEqual(report.ignored, []);
    assert.deepEqual(
      report.tables.find((table) => table.table === 'choices'),
      { table: 'choices', state: 'read', recovered: 1, leftOut: 0, unread: 0, unreadExact: true },
    );
    const recovered = openDatabase(file);
    try {
      assert.deepEqual(recovered.prepare('SELECT name, value FROM choices').all(), [
        { name: 'masterKey', value: 'keyring' },
      ]);
    } finally {
      recovered.close();
    }
    assert.deepEqual(readdirSync(dir).sort(), [MOVED, 'notify.db'].sort());
  });

  it('keeps the old write-ahead log beside the moved file', async () => {
    const db = openDatabase(file);
    db.exec("INSERT INTO choices VALUES ('a', 'b')");
    // Leave the WAL in place, as a crashed broker does.
    const walCopy = readFileSync(`${file}-wal`);
    const mainCopy = readFileSync(file);
    db.close();
    writeFileSync(file, mainCopy);
    writeFileSync(`${file}-wal`, walCopy);
    const report = await recoverDatabase(file, 20_000, NOW);
    assert.equal(existsSync(`${report.damagedCopy}-wal`), true);
    assert.deepEqual(readFileSync(`${report.damagedCopy}-wal`), walCopy);
    assert.equal(report.tables.find((table) => table.table === 'choices')!['recovered' as never], 1);
  });

  it('refuses a missing file and a folder, changing nothing', async () => {
    await assert.rejects(recoverDatabase(file, 20_000, NOW), { message: `there is no database at ${file}` });
    mkdirSync(file);
    await assert.rejects(recoverDatabase(file, 20_000, NOW), {
      message: `${file} is not a regular file; move it away, then start Notify`,
    });
    assert.deepEqual(readdirSync(dir), ['notify.db']);
  });

  it('stops at a newer schema with the reason, leaving the file and no leftovers', async () => {
    const db = openDatabase(file);
    db.pragma('user_version = 99');
    db.pragma('journal_mode = DELETE');
    db.close();
    writeFileSync(`${file}.recovering`, 'left from an earlier try');
    const before = readFileSync(file);
    await assert.rejects(recoverDatabase(file, 20_000, NOW), {
      message:
        /^the damaged database's schema is version 99, newer than this Notify understands \(\d+\); recover it with the newer Notify$/,
    });
    assert.deepEqual(readFileSync(file), before);
    assert.deepEqual(readdirSync(dir), ['notify.db']);
  });

  it('stops at the time limit, changing nothing', async () => {
    const db = openDatabase(file);
    db.pragma('journal_mode = DELETE');
    db.close();
    await assert.rejects(recoverDatabase(file, 1, NOW), {
      name: 'RecoveryTimeLimitError',
      message: 'the recovery did not finish within 0.001 s and was stopped; nothing was changed',
    });
    assert.deepEqual(readdirSync(dir), ['notify.db']);
  });
});
