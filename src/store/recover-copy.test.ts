import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { MIGRATIONS } from './migrations.js';
import { NotificationStore } from './notification-store.js';
import { copyReadableTables } from './recover-copy.js';
import { quoteName, schemaCatalog } from './schema-catalog.js';

const TABLES = [
  'notifications',
  'providers',
  'provider_secrets',
  'routes',
  'outbox',
  'choices',
  'outbox_intake',
  'web_sessions',
  'relay_cursors',
  'agent_tokens',
];

describe('the schema catalog a recovery trusts', () => {
  it('lists every table of the newest schema in creation order, with the version that made it', () => {
    const catalog = schemaCatalog();
    assert.equal(catalog.version, MIGRATIONS.at(-1)!.version);
    assert.deepEqual(
      catalog.tables.map((table) => [table.name, table.since]),
      [
        ['notifications', 1],
        ['providers', 3],
        ['provider_secrets', 3],
        ['routes', 3],
        ['outbox', 3],
        ['choices', 3],
        ['outbox_intake', 4],
        ['web_sessions', 6],
        ['relay_cursors', 9],
        ['agent_tokens', 12],
      ],
    );
    const notifications = catalog.tables[0]!;
    assert.ok(notifications.columns.includes('arc_event_id') && notifications.columns.includes('answer'));
    assert.ok(notifications.fullIndexes.length > 0);
    assert.ok(!notifications.fullIndexes.includes('notifications_arc_event'), 'a partial index is not full');
    assert.ok(catalog.names.has('outbox_intake_before_update') && catalog.names.has('notifications'));
  });

  it('quotes names, doubling quotes inside', () => {
    assert.equal(quoteName('plain'), '"plain"');
    assert.equal(quoteName('we"ird'), '"we""ird"');
  });
});

describe('copyReadableTables: copying what can be read into a new database', () => {
  let dir: string;
  let source: string;
  let target: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-recover-copy-'));
    source = join(dir, 'old.db');
    target = openDatabase(join(dir, 'new.db'));
  });
  afterEach(() => {
    target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function fill(db: Db, count: number): void {
    const store = new NotificationStore(db);
    for (let n = 0; n < count; n++) {
      store.upsert(
        `n${n}`,
        { agent: 'a', type: 'info', priority: 'normal', title: `t${n}`, message: 'm' },
        n,
        {},
      );
    }
  }

  it('copies every row of a sound file, and lists foreign objects it never copies', () => {
    const db = openDatabase(source);
    fill(db, 3);
    db.exec(`INSERT INTO choices VALUES ('k', 'v');
      CREATE TABLE extra (x); CREATE VIEW peek AS SELECT 1; CREATE TRIGGER sneaky AFTER INSERT ON choices BEGIN SELECT 1; END;
      CREATE TABLE counted (id INTEGER PRIMARY KEY AUTOINCREMENT); INSERT INTO counted DEFAULT VALUES; ANALYZE;`);
    db.close();
    const result = copyReadableTables(source, target, schemaCatalog());
    const read = (table: string, recovered: number) => ({
      table,
      state: 'read',
      recovered,
      leftOut: 0,
      unread: 0,
      unreadExact: true,
    });
    assert.deepEqual(
      result.tables,
      TABLES.map((table) => read(table, table === 'notifications' ? 3 : table === 'choices' ? 1 : 0)),
    );
    // SQLite's own sqlite_sequence and sqlite_stat1 are neither Notify's nor foreign.
    assert.deepEqual(result.ignored.sort(), ['table counted', 'table extra', 'trigger sneaky', 'view peek']);
    assert.deepEqual(target.prepare('SELECT id, title FROM notifications ORDER BY seq').all(), [
      { id: 'n0', title: 't0' },
      { id: 'n1', title: 't1' },
      { id: 'n2', title: 't2' },
    ]);
  });

  it('takes a table whose name differs only in case for the one it is: SQLite ignores case in names', () => {
    const db = openDatabase(source);
    db.exec(`INSERT INTO choices VALUES ('k', 'v');
      ALTER TABLE choices RENAME TO choices_before; ALTER TABLE choices_before RENAME TO Choices;`);
    db.close();
    const result = copyReadableTables(source, target, schemaCatalog());
    assert.deepEqual(result.ignored, [], 'nothing foreign');
    assert.deepEqual(
      result.tables.find((table) => table.table === 'choices'),
      { table: 'choices', state: 'read', recovered: 1, leftOut: 0, unread: 0, unreadExact: true },
    );
  });

  it('says which tables an older file predates, and which it should hold but does not', () => {
    const db = openDatabase(source, MIGRATIONS.slice(0, 3));
    db.exec(`INSERT INTO notifications (id, agent, type, priority, title, message, status, created_at, updated_at)
      VALUES ('n1', 'a', 'info', 'low', 't', 'm', 'active', 1, 1), ('n2', 'a', 'info', 'low', 't', 'm', 'resolved', 2, 2)`);
    db.exec('DROP TABLE choices');
    db.close();
    const states = copyReadableTables(source, target, schemaCatalog()).tables.map((table) => [
      table.table,
      table.state,
    ]);
    assert.deepEqual(states, [
      ['notifications', 'read'],
      ['providers', 'read'],
      ['provider_secrets', 'read'],
      ['routes', 'read'],
      ['outbox', 'read'],
      ['choices', 'missing'],
      ['outbox_intake', 'predates'],
      ['web_sessions', 'predates'],
      ['relay_cursors', 'predates'],
      ['agent_tokens', 'predates'],
    ]);
    assert.equal(target.prepare('SELECT count(*) AS n FROM notifications').get()!['n' as never], 2);
  });

  const REFUSED: [what: string, sql: string, table: string, reason: string][] = [
    [
      'a view',
      "DROP TABLE choices; CREATE VIEW choices AS SELECT 'a' AS name, 'b' AS value;",
      'choices',
      'it is a view, not a table',
    ],
    [
      'a table without rowids',
      'DROP TABLE outbox_intake; CREATE TABLE outbox_intake (seq INTEGER PRIMARY KEY, items TEXT) WITHOUT ROWID;',
      'outbox_intake',
      'it is a table without rowids, not a plain one',
    ],
    [
      'a virtual table',
      'DROP TABLE choices; CREATE VIRTUAL TABLE choices USING fts5(name, value);',
      'choices',
      'it is a virtual table, not a plain one',
    ],
    [
      'a table with a computed column',
      "DROP TABLE choices; CREATE TABLE choices (name TEXT, value TEXT GENERATED ALWAYS AS ('x'));",
      'choices',
      'its column value is computed, not stored',
    ],
    [
      "a table with none of Notify's columns",
      'DROP TABLE outbox_intake; CREATE TABLE outbox_intake (other TEXT);',
      'outbox_intake',
      "it has none of Notify's columns",
    ],
  ];
  for (const [what, sql, name, reason] of REFUSED) {
    it(`refuses, unread, a name of the schema that the file holds as ${what}`, () => {
      const db = openDatabase(source);
      db.exec(sql);
      db.close();
      const { tables } = copyReadableTables(source, target, schemaCatalog());
      assert.deepEqual(
        tables.find((table) => table.table === name),
        { table: name, state: 'refused', reason },
      );
      assert.equal(target.prepare(`SELECT count(*) AS n FROM ${quoteName(name)}`).get()!['n' as never], 0);
    });
  }

  it('leaves out rows the new schema refuses, counting them', () => {
    const db = openDatabase(source);
    db.exec(`DROP TABLE choices; CREATE TABLE choices (name TEXT, value TEXT);
      INSERT INTO choices VALUES ('a', '1'), ('a', '2'), ('b', NULL), ('c', '3');`);
    db.close();
    const choices = copyReadableTables(source, target, schemaCatalog()).tables.find(
      (table) => table.table === 'choices',
    );
    assert.deepEqual(choices, {
      table: 'choices',
      state: 'read',
      recovered: 2,
      leftOut: 2,
      unread: 0,
      unreadExact: true,
    });
    assert.deepEqual(target.prepare('SELECT name, value FROM choices ORDER BY name').all(), [
      { name: 'a', value: '1' },
      { name: 'c', value: '3' },
    ]);
  });

  /** 400 rows of about 600 bytes (or `size`) in choices, six to a page, from the given rowid on; the file's page size. */
  function fillChoices(firstRowid: bigint, size = 600): number {
    const db = openDatabase(source);
    const insert = db.prepare('INSERT INTO choices (rowid, name, value) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let n = 0; n < 400; n++)
        insert.run(firstRowid + BigInt(n), `k${n}`, `value ${String(n).padStart(4, '0')} `.padEnd(size, '.'));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    return readFileSync(source).readUInt16BE(16);
  }

  /** The rows (by number) whose value is stored on the given page of the file. */
  function rowsOnPage(bytes: Buffer, pageSize: number, page: number): number[] {
    return Array.from({ length: 400 }, (_, n) => n).filter(
      (n) => Math.floor(bytes.indexOf(`value ${String(n).padStart(4, '0')} `) / pageSize) === page,
    );
  }

  /**
   * Garbage over the header of each page (a table leaf's rows are then unreadable), then the copy: what
   * it says of `choices`, and of the table named as `other`.
   */
  function copyWithPagesGarbled(bytes: Buffer, pageSize: number, pages: number[], other = 'choices') {
    for (const page of pages) bytes.fill(0xff, page * pageSize, page * pageSize + 16);
    writeFileSync(source, bytes);
    const { tables } = copyReadableTables(source, target, schemaCatalog());
    const named = (name: string) => tables.find((table) => table.table === name);
    return { choices: named('choices'), other: named(other) };
  }

  function copiedRows(): number[] {
    return target
      .prepare<[], { name: string }>('SELECT name FROM choices')
      .all()
      .map((row) => Number(row.name.slice(1)))
      .sort((a, b) => a - b);
  }

  /**
   * Where the damaged page is, and what that loses: the rows on it, or (the first leaf) the whole
   * table, as SQLite then reads none of its rows from any rowid on.
   */
  const DAMAGED: [where: string, row: number, firstRowid: bigint, indexed: boolean, loses: 'page' | 'all'][] =
    [
      ['in the middle', 200, 1n, true, 'page'],
      ['last', 399, 1n, true, 'page'],
      ['first', 0, 1n, true, 'all'],
      ['in the middle of rowids past 2^53', 200, 2n ** 62n, true, 'page'],
      ['in the middle of a table without an index', 200, 1n, false, 'page'],
      ['in the middle of rowids from the lowest SQLite allows', 200, -(2n ** 63n), true, 'page'],
      ['last, at the highest rowid SQLite allows', 399, 2n ** 63n - 400n, true, 'page'],
    ];
  for (const [where, row, firstRowid, indexed, loses] of DAMAGED) {
    it(`reads on past a damaged page ${where}, and counts the rows lost there ${indexed ? 'by the index that still lists them' : 'as unknown'}`, () => {
      if (!indexed) {
        const db = openDatabase(source);
        db.exec('DROP TABLE choices; CREATE TABLE choices (name TEXT, value TEXT)');
        db.close();
      }
      const pageSize = fillChoices(firstRowid);
      const bytes = readFileSync(source);
      const page = Math.floor(bytes.indexOf(`value ${String(row).padStart(4, '0')} `) / pageSize);
      const onPage = rowsOnPage(bytes, pageSize, page);
      assert.ok(onPage.includes(row) && onPage.length < 20, String(onPage));
      const all = Array.from({ length: 400 }, (_, n) => n);
      const lost = loses === 'all' ? all : onPage;
      // The table leaf holding the row: its rows are only on that page.
      const { choices } = copyWithPagesGarbled(bytes, pageSize, [page]);
      assert.deepEqual(choices, {
        table: 'choices',
        state: 'read',
        recovered: 400 - lost.length,
        leftOut: 0,
        unread: indexed ? lost.length : 0,
        unreadExact: indexed,
      });
      assert.deepEqual(
        copiedRows(),
        all.filter((n) => !lost.includes(n)),
      );
    });
  }

  it('reads on past three damaged pages of one table, counting exactly the rows of each, and keeps the other tables whole', () => {
    const db = openDatabase(source);
    fill(db, 3);
    db.close();
    const pageSize = fillChoices(1n);
    const bytes = readFileSync(source);
    const pages = [40, 200, 360].map((row) =>
      Math.floor(bytes.indexOf(`value ${String(row).padStart(4, '0')} `) / pageSize),
    );
    const lost = pages.flatMap((page) => rowsOnPage(bytes, pageSize, page));
    assert.equal(new Set(pages).size, 3);
    const { choices, other } = copyWithPagesGarbled(bytes, pageSize, pages, 'notifications');
    assert.deepEqual(choices, {
      table: 'choices',
      state: 'read',
      recovered: 400 - lost.length,
      leftOut: 0,
      unread: lost.length,
      unreadExact: true,
    });
    assert.deepEqual(
      copiedRows(),
      Array.from({ length: 400 }, (_, n) => n).filter((n) => !lost.includes(n)),
    );
    assert.deepEqual(other, {
      table: 'notifications',
      state: 'read',
      recovered: 3,
      leftOut: 0,
      unread: 0,
      unreadExact: true,
    });
  });

  it('resumes at the first readable row after a damaged page of four rows, not at the search step past it', () => {
    // Four rows a page: the doubling search's steps (1, 3, 7 rows on) pass the next page's first row.
    const pageSize = fillChoices(1n, 900);
    const bytes = readFileSync(source);
    const page = Math.floor(bytes.indexOf('value 0200 ') / pageSize);
    const lost = rowsOnPage(bytes, pageSize, page);
    assert.equal(lost.length, 4);
    const { choices } = copyWithPagesGarbled(bytes, pageSize, [page]);
    assert.deepEqual(choices, {
      table: 'choices',
      state: 'read',
      recovered: 396,
      leftOut: 0,
      unread: 4,
      unreadExact: true,
    });
    assert.deepEqual(
      copiedRows(),
      Array.from({ length: 400 }, (_, n) => n).filter((n) => !lost.includes(n)),
    );
  });

  it('lets go of the damaged file once it has read it', () => {
    const db = openDatabase(source);
    fill(db, 1);
    db.close();
    const holding = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(source);
        } catch {
          return false;
        }
      });
    copyReadableTables(source, target, schemaCatalog());
    assert.deepEqual(holding(), []);
  });

  it('reads the pages a truncated file still has', () => {
    const pageSize = fillChoices(1n);
    const page = Math.floor(readFileSync(source).indexOf('value 0300 ') / pageSize);
    truncateSync(source, page * pageSize);
    const choices = copyReadableTables(source, target, schemaCatalog()).tables.find(
      (table) => table.table === 'choices',
    );
    assert.equal(choices?.state, 'read');
    assert.deepEqual(
      copiedRows(),
      Array.from({ length: 300 }, (_, n) => n),
    );
  });

  it('never writes to the damaged file, not even its write-ahead log', () => {
    const db = openDatabase(source);
    fill(db, 2);
    // Keep the rows in the write-ahead log, as a crashed broker leaves it.
    const main = readFileSync(source);
    const wal = readFileSync(`${source}-wal`);
    db.close();
    writeFileSync(source, main);
    writeFileSync(`${source}-wal`, wal);
    const result = copyReadableTables(source, target, schemaCatalog());
    assert.equal(result.tables[0]!['recovered' as never], 2);
    assert.deepEqual(readFileSync(source), main);
    assert.ok(existsSync(`${source}-wal`));
    assert.deepEqual(readFileSync(`${source}-wal`), wal);
  });

  it('stops with the error when the new database cannot take a row (a full disk)', () => {
    fillChoices(1n);
    target.pragma(`max_page_count = ${target.pragma('page_count', { simple: true }) as number}`);
    assert.throws(() => copyReadableTables(source, target, schemaCatalog()), { code: 'SQLITE_FULL' });
    assert.deepEqual(copiedRows(), []);
  });

  it('calls every table unreadable, with the reason, in a file that is not a database', () => {
    writeFileSync(source, 'this is not a database, just text '.repeat(200));
    const result = copyReadableTables(source, target, schemaCatalog());
    assert.deepEqual(result, {
      tables: TABLES.map((table) => ({ table, state: 'unreadable', reason: 'file is not a database' })),
      ignored: [],
    });
  });

  it('refuses, unread, a table whose stored definition SQLite cannot read', () => {
    const db = openDatabase(source);
    db.exec("INSERT INTO choices VALUES ('k', 'v')");
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.exec("UPDATE sqlite_master SET sql = 'CREATE TABLE choices (name TEXT' WHERE name = 'choices'");
    db.close();
    const { tables } = copyReadableTables(source, target, schemaCatalog());
    assert.deepEqual(
      tables.find((table) => table.table === 'choices'),
      { table: 'choices', state: 'refused', reason: 'SQLite cannot read its definition' },
    );
    assert.deepEqual(copiedRows(), []);
  });

  it('refuses a file of a newer schema, and calls every table unreadable when the file cannot be opened', () => {
    const db = openDatabase(source);
    db.pragma('user_version = 99');
    db.close();
    assert.throws(() => copyReadableTables(source, target, schemaCatalog()), {
      message: `the damaged database's schema is version 99, newer than this Notify understands (${MIGRATIONS.at(-1)!.version}); recover it with the newer Notify`,
    });
    const missing = copyReadableTables(join(dir, 'absent.db'), target, schemaCatalog());
    assert.deepEqual(missing.ignored, []);
    assert.deepEqual(
      missing.tables.map((table) => [table.table, table.state]),
      TABLES.map((table) => [table, 'unreadable']),
    );
    assert.ok(missing.tables.every((table) => 'reason' in table && table.reason.length > 0));
  });
});
