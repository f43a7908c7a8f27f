/**
 * relay.db's connection: private to its owner, and one shared connection on which requests' transactions
 * take turns, so a request's statement never lands inside (or is rolled back with) another's transaction.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteDatabase } from './sqlite-database.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
/** A new relay.db with one table of names. */
async function freshDatabase(): Promise<{ db: SqliteDatabase; file: string }> {
  const file = join(folder, `relay-${++files}.db`);
  const db = new SqliteDatabase(file);
  await db.exec('CREATE TABLE names (name TEXT PRIMARY KEY)');
  return { db, file };
}

async function names(db: SqliteDatabase): Promise<string[]> {
  return (await db.all('SELECT name FROM names ORDER BY name')).map((row) => row['name'] as string);
}

/** A promise the test resolves when it wants the work waiting on it to go on. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('relay.db', () => {
  it('is readable and writable by its owner only: it holds password hashes and credentials', async () => {
    const { db, file } = await freshDatabase();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await db.close();
  });

  it('writes ahead to relay.db-wal while open, so readers never wait for a writer', async () => {
    const { db, file } = await freshDatabase();
    await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
    assert.equal(existsSync(`${file}-wal`), true);
    assert.deepEqual(await db.get('PRAGMA journal_mode'), { journal_mode: 'wal' });
    await db.close();
  });

  it('counts the rows a statement changed, and reads them back with or without parameters', async () => {
    const { db } = await freshDatabase();
    assert.equal(await db.run('INSERT INTO names (name) VALUES (?), (?)', ['ada', 'bob']), 2);
    assert.equal(await db.run("UPDATE names SET name = 'x' WHERE name = 'nobody'"), 0);
    assert.deepEqual(await db.get('SELECT COUNT(*) AS n FROM names'), { n: 2 });
    assert.deepEqual(await db.get('SELECT name FROM names WHERE name = ?', ['bob']), { name: 'bob' });
    assert.equal(await db.get('SELECT name FROM names WHERE name = ?', ['carl']), undefined);
    assert.deepEqual(await names(db), ['ada', 'bob']);
    await db.close();
  });
});

describe('relay.db: transactions on the one connection', () => {
  it("keeps another request's write out of a transaction that is then rolled back", async () => {
    const { db } = await freshDatabase();
    const paused = gate();
    const failing = db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['carl']);
      await paused.opened;
      throw new Error('the request failed');
    });
    // Another request writes while the first one's transaction is open.
    const other = db.run('INSERT INTO names (name) VALUES (?)', ['dora']);
    paused.open();
    await assert.rejects(failing, /the request failed/);
    assert.equal(await other, 1);
    assert.deepEqual(await names(db), ['dora'], "the other request's write is kept, the failed one's is not");
    await db.close();
  });

  it('runs two requests’ transactions one after the other, each kept or rolled back on its own', async () => {
    const { db } = await freshDatabase();
    const paused = gate();
    const first = db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
      await paused.opened;
      return 'first';
    });
    const second = db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['bob']);
      throw new Error('second failed');
    });
    const third = db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['carl']);
      return 'third';
    });
    paused.open();
    assert.equal(await first, 'first');
    await assert.rejects(second, /second failed/);
    assert.equal(await third, 'third');
    assert.deepEqual(await names(db), ['ada', 'carl']);
    await db.close();
  });

  it('runs a transaction opened inside another as part of it: both kept, or both rolled back', async () => {
    const { db } = await freshDatabase();
    await db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
      await db.transaction(() => db.run('INSERT INTO names (name) VALUES (?)', ['bob']));
    });
    await assert.rejects(
      db.transaction(async () => {
        await db.transaction(() => db.run('INSERT INTO names (name) VALUES (?)', ['carl']));
        throw new Error('outer failed');
      }),
      /outer failed/,
    );
    assert.deepEqual(await names(db), ['ada', 'bob']);
    await db.close();
  });

  it('a statement that fails inside a transaction rolls back what the transaction wrote', async () => {
    const { db } = await freshDatabase();
    await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
    await assert.rejects(
      db.transaction(async () => {
        await db.run('INSERT INTO names (name) VALUES (?)', ['bob']);
        await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
      }),
      /UNIQUE constraint failed/,
    );
    assert.deepEqual(await names(db), ['ada']);
    await db.transaction(() => db.run('INSERT INTO names (name) VALUES (?)', ['bob']));
    assert.deepEqual(await names(db), ['ada', 'bob'], 'the next transaction works');
    await db.close();
  });

  it('closing while a transaction is open lets it finish and keeps its writes (a stop during a request)', async () => {
    const { db, file } = await freshDatabase();
    const paused = gate();
    const open = db.transaction(async () => {
      await db.run('INSERT INTO names (name) VALUES (?)', ['ada']);
      await paused.opened;
      await db.run('INSERT INTO names (name) VALUES (?)', ['bob']);
    });
    const closed = db.close();
    paused.open();
    await open;
    await closed;
    const reopened = new SqliteDatabase(file);
    assert.deepEqual(await names(reopened), ['ada', 'bob']);
    await reopened.close();
  });
});
