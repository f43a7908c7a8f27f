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

/** Timers this process has pending: a recovery that left one would keep `notifyctl db recover` waiting. */
const pendingTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

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
  it('removes the empty write-ahead log and shared memory that reading a WAL file leaves', async () => {
    const db = openDatabase(file);
    db.exec("INSERT INTO choices VALUES ('a', 'b')");
    db.close();
    assert.deepEqual(readdirSync(dir), ['notify.db'], 'a cleanly closed WAL file, alone');
    const timers = pendingTimers();
    const report = await recoverDatabase(file, 20_000, NOW);
    assert.equal(pendingTimers(), timers, 'no time-limit timer is left running');
    assert.deepEqual(readdirSync(dir).sort(), [MOVED, 'notify.db'].sort());
    assert.equal(report.tables.find((table) => table.table === 'choices')!['recovered' as never], 1);
  });

  it('removes leftovers of an earlier try with their companions before starting', async () => {
    openDatabase(file).close();
    for (const suffix of ['', '-wal', '-shm', '-journal'])
      writeFileSync(`${file}.recovering${suffix}`, 'left from an earlier try');
    await recoverDatabase(file, 20_000, NOW);
    assert.deepEqual(readdirSync(dir).sort(), [MOVED, 'notify.db'].sort());
  });

  it('after a refused file, leaves the write-ahead log it had, even an empty one', async () => {
    const db = openDatabase(file);
    db.pragma('user_version = 99');
    db.close();
    writeFileSync(`${file}-wal`, '');
    const before = readFileSync(file);
    await assert.rejects(recoverDatabase(file, 20_000, NOW), { message: /schema is version 99/ });
    assert.equal(readFileSync(`${file}-wal`).length, 0, 'the log is where it was');
    assert.deepEqual(readFileSync(file), before);
  });

  it('after a refused WAL file, leaves no write-ahead log that was not there', async () => {
    const db = openDatabase(file);
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(file);
    await assert.rejects(recoverDatabase(file, 20_000, NOW), { message: /schema is version 99/ });
    assert.deepEqual(readFileSync(file), before);
    assert.equal(existsSync(`${file}-wal`), false);
    assert.equal(existsSync(`${file}.recovering`), false);
  });

  describe('a recovery process that dies without an answer', () => {
    let saved: string | undefined;
    beforeEach(() => {
      saved = process.env['NODE_OPTIONS'];
    });
    afterEach(() => {
      if (saved === undefined) delete process.env['NODE_OPTIONS'];
      else process.env['NODE_OPTIONS'] = saved;
    });

    /** The recovery process inherits the environment: a preloaded script makes it die before it reads. */
    async function dying(script: string): Promise<unknown> {
      openDatabase(file).close();
      const preload = join(dir, 'die.cjs');
      writeFileSync(preload, script);
      process.env['NODE_OPTIONS'] = `--require ${preload}`;
      const timers = pendingTimers();
      const error = await recoverDatabase(file, 20_000, NOW).then(
        () => assert.fail('the recovery succeeded'),
        (error: unknown) => error,
      );
      assert.equal(pendingTimers(), timers, 'no time-limit timer is left running');
      assert.deepEqual(readdirSync(dir).sort(), ['die.cjs', 'notify.db'], 'nothing changed');
      return error;
    }

    it('says how it ended and what it wrote to stderr', async () => {
      const error = await dying("process.stderr.write('  out of luck\\n'); process.exit(3);");
      assert.equal(
        (error as Error).message,
        'the recovery process ended without an answer (exit code 3): out of luck',
      );
    });

    it('names the signal that killed it, with no output', async () => {
      const error = await dying("process.kill(process.pid, 'SIGKILL');");
      assert.equal((error as Error).message, 'the recovery process ended without an answer (SIGKILL)');
    });

    it('keeps the first 4000 characters of a long stderr', async () => {
      const error = await dying("process.stderr.write('x'.repeat(100000)); process.exit(1);");
      assert.equal(
        (error as Error).message,
        `the recovery process ended without an answer (exit code 1): ${'x'.repeat(4000)}`,
      );
    });
  });

  it('fails with the reason when the recovery process cannot start, changing nothing', async () => {
    openDatabase(file).close();
    const node = process.execPath;
    const timers = pendingTimers();
    process.execPath = join(dir, 'no-node-here');
    try {
      await assert.rejects(recoverDatabase(file, 20_000, NOW), { code: 'ENOENT' });
    } finally {
      process.execPath = node;
    }
    assert.equal(pendingTimers(), timers, 'no time-limit timer is left running');
    assert.deepEqual(readdirSync(dir), ['notify.db']);
  });
});
