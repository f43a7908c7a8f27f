import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase, PRAGMAS } from './database.js';
import { asDamage, DatabaseDamagedError } from './integrity.js';
import { MIGRATIONS } from './migrations.js';
import Database from './sqlite.js';
import { StorageUnavailableError, storageProblemOf } from './storage-errors.js';

const damaged = (file: string, detail: string) =>
  `the database ${file} is damaged (${detail}); nothing was written to it. ` +
  `Run 'notifyctl db recover' to copy what can still be read into a new database (the damaged file is kept beside it)`;

describe('opening the database file', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-database-'));
    file = join(dir, 'data', 'notify.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the folder and an owner-only file, in WAL mode, migrated to the newest version', () => {
    const db = openDatabase(file);
    try {
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, 'data')).mode & 0o777, 0o700);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('synchronous', { simple: true }), 1);
      assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
      assert.equal(db.pragma('journal_size_limit', { simple: true }), 16 * 1024 * 1024);
      assert.equal(db.pragma('busy_timeout', { simple: true }), 0);
      assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version);
      assert.deepEqual(PRAGMAS, [
        'journal_mode = WAL',
        'synchronous = NORMAL',
        'journal_size_limit = 16777216',
        'foreign_keys = ON',
      ]);
    } finally {
      db.close();
    }
  });

  it('runs only the migrations newer than the file, each once', () => {
    const first = MIGRATIONS.slice(0, 1);
    openDatabase(file, first).close();
    const db = openDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version);
    } finally {
      db.close();
    }
    openDatabase(file).close();
  });

  it('refuses a schema newer than it understands, leaving the file as it was', () => {
    openDatabase(file, [
      { version: 1, description: 'x', sql: 'CREATE TABLE t (a)' },
      { version: 9, description: 'y', sql: 'CREATE TABLE u (b)' },
    ]).close();
    assert.throws(() => openDatabase(file, MIGRATIONS.slice(0, 2)), {
      message: 'the database schema is version 9, newer than this Notify understands (2); upgrade Notify',
    });
    assert.throws(() => openDatabase(file, []), {
      message: 'the database schema is version 9, newer than this Notify understands (0); upgrade Notify',
    });
  });

  it('refuses a garbage file as damaged, naming it, and writes nothing to it', () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'this is not a database, just text '.repeat(200));
    const before = readFileSync(garbage);
    assert.throws(
      () => openDatabase(garbage),
      (error: unknown) =>
        error instanceof DatabaseDamagedError &&
        error.file === garbage &&
        error.message === damaged(garbage, 'file is not a database'),
    );
    assert.deepEqual(readFileSync(garbage), before);
  });

  it('refuses a FIFO in place of the file instead of hanging', () => {
    const fifo = join(dir, 'fifo.db');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => openDatabase(fifo), {
      name: 'DatabaseDamagedError',
      message: damaged(fifo, 'not a regular file'),
    });
  });

  it('refuses a folder in place of the file', () => {
    assert.throws(
      () => openDatabase(dir),
      (error: unknown) => (error as { code?: string }).code === 'EISDIR',
    );
  });

  it('reports a file whose pages are damaged, by quick_check', () => {
    const db = openDatabase(file);
    db.exec('CREATE TABLE filler (x TEXT); CREATE INDEX filler_x ON filler (x)');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    for (let n = 0; n < 2000; n++) insert.run(`row ${n} `.repeat(10));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Scribble over a page in the middle of the table's b-tree, keeping the header intact.
    bytes.fill(0x41, pageSize * 20, pageSize * 20 + 200);
    writeFileSync(file, bytes);
    assert.throws(
      () => openDatabase(file),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseDamagedError, String(error));
        assert.match(
          error.message,
          /^the database .* is damaged \(.+\); nothing was written to it\. Run 'notifyctl db recover'/,
        );
        return true;
      },
    );
  });

  for (const [rows, what, listed] of [
    [1, 'one broken row', 'NULL value in t.x'],
    [4, 'four broken rows, listing three', 'NULL value in t.x; NULL value in t.x; NULL value in t.x'],
  ] as const) {
    it(`reports what quick_check finds in a file SQLite still reads (${what}), writing nothing`, () => {
      const plain = join(dir, 'plain.db');
      const db = new Database(plain);
      db.exec('CREATE TABLE t (x)');
      for (let n = 0; n < rows; n++) db.exec('INSERT INTO t VALUES (NULL)');
      // A rule the rows already break, as damage to the stored schema leaves it: only quick_check sees it.
      db.unsafeMode(true);
      db.pragma('writable_schema = ON');
      db.exec("UPDATE sqlite_master SET sql = 'CREATE TABLE t (x NOT NULL)' WHERE name = 't'");
      db.close();
      const before = readFileSync(plain);
      assert.throws(() => openDatabase(plain), {
        name: 'DatabaseDamagedError',
        message: damaged(plain, `quick_check: ${listed}`),
      });
      assert.deepEqual(readFileSync(plain), before);
    });
  }
});

describe('asDamage and storageProblemOf: what an SQLite error means to the user', () => {
  const sqliteError = (code: string) => Object.assign(new Error('words'), { code });

  it('sees damage only in NOTADB and CORRUPT codes', () => {
    for (const code of ['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX']) {
      const damage = asDamage(sqliteError(code), '/x.db');
      assert.ok(damage instanceof DatabaseDamagedError, code);
      assert.equal(damage.message, damaged('/x.db', 'words'));
    }
    for (const error of [
      sqliteError('SQLITE_FULL'),
      sqliteError('SQLITE_IOERR'),
      new Error('x'),
      null,
      { code: 5 },
    ]) {
      assert.equal(asDamage(error, '/x.db'), undefined);
    }
  });

  const TABLE: [code: string, problem: string | undefined][] = [
    ['SQLITE_FULL', 'full'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_LOCKED', 'busy'],
    ['SQLITE_IOERR_WRITE', 'failed'],
    ['SQLITE_CANTOPEN', 'failed'],
    ['SQLITE_READONLY', 'failed'],
    ['SQLITE_CORRUPT', 'failed'],
    ['SQLITE_NOTADB', 'failed'],
    ['SQLITE_PROTOCOL', 'failed'],
    ['SQLITE_NOMEM', 'failed'],
    ['SQLITE_CONSTRAINT_UNIQUE', undefined],
    ['SQLITE_ERROR', undefined],
    ['ENOENT', undefined],
  ];
  for (const [code, problem] of TABLE) {
    it(`${code} is ${problem ?? 'not a storage problem'}`, () => {
      const result = storageProblemOf(sqliteError(code));
      assert.equal(result?.problem, problem);
      if (result) {
        assert.equal(result.detail, `${code} words`);
        assert.equal(result.message, `${problem}: ${code} words`);
        assert.equal(result.name, 'StorageUnavailableError');
      }
    });
  }

  it('passes a StorageUnavailableError through and ignores errors without a code', () => {
    const known = new StorageUnavailableError('busy', 'held');
    assert.equal(storageProblemOf(known), known);
    assert.equal(storageProblemOf(new Error('x')), undefined);
    assert.equal(storageProblemOf(null), undefined);
    assert.equal(storageProblemOf({ code: 13 }), undefined);
  });

  it('a real full database is "full"', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (x BLOB)');
      db.pragma('max_page_count = 3');
      assert.throws(
        () => db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(64 * 1024)),
        (error: unknown) => storageProblemOf(error)?.problem === 'full',
      );
    } finally {
      db.close();
    }
  });
});
