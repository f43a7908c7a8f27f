/**
 * `notify-relay migrate [--check]` on a relay.db, in process: what an operator upgrading a relay reads,
 * and the exit code a deploy script acts on. (test/relay-many/operations.test.ts runs the command on
 * PostgreSQL as a process.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { connectionsLeftTo } from '../../test/support/postgres-connections.js';
import { lineSink } from '../../test/support/caught-output.js';
import { runMigrate } from './migrate-command.js';
import { SCHEMA_VERSION } from './store-migrations.js';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function dataFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'notify-relay-migrate-command-'));
  roots.push(root);
  return join(root, 'data');
}

describe('notify-relay migrate on relay.db', () => {
  let printed: { out: string[]; err: string[] };

  let io: { stdout: Writable; stderr: Writable };

  beforeEach(() => {
    printed = { out: [], err: [] };
    io = { stdout: lineSink(printed.out), stderr: lineSink(printed.err) };
  });

  it('--check says what is missing (exit 1) until migrate applies it; then it is current (exit 0)', async () => {
    const data = dataFolder();
    const file = join(data, 'relay.db');
    assert.equal(await runMigrate({ data }, true, io), 1);
    assert.deepEqual(printed.out, [
      `${file}: schema version 0, ${SCHEMA_VERSION} migration(s) to apply (run 'notify-relay migrate').`,
    ]);
    assert.equal(await runMigrate({ data }, false, io), 0);
    assert.equal(printed.out[1], `${file}: applied migration(s) 1, 2; schema version ${SCHEMA_VERSION}.`);
    assert.equal(await runMigrate({ data }, true, io), 0);
    assert.equal(printed.out[2], `${file}: schema version ${SCHEMA_VERSION}, current.`);
    assert.equal(await runMigrate({ data }, false, io), 0);
    assert.equal(printed.out[3], `${file}: schema version ${SCHEMA_VERSION}, current; nothing to apply.`);
    assert.deepEqual(printed.err, []);
  });

  it('a relay.db the previous release left: --check counts the one migration missing, and migrate applies only it', async () => {
    const data = dataFolder();
    const file = join(data, 'relay.db');
    assert.equal(await runMigrate({ data }, false, io), 0);
    // As the release before the newest migration (2, the bus table) left it.
    const raw = new Database(file);
    raw.exec(`DELETE FROM relay_schema WHERE version = ${SCHEMA_VERSION}; DROP TABLE relay_bus;`);
    raw.close();
    printed.out.length = 0;
    assert.equal(await runMigrate({ data }, true, io), 1);
    assert.equal(await runMigrate({ data }, false, io), 0);
    assert.deepEqual(printed.out, [
      `${file}: schema version ${SCHEMA_VERSION - 1}, 1 migration(s) to apply (run 'notify-relay migrate').`,
      `${file}: applied migration(s) ${SCHEMA_VERSION}; schema version ${SCHEMA_VERSION}.`,
    ]);
  });

  it('refuses a relay.db from a newer notify-relay (exit 1), saying so, and leaves it as it is', async () => {
    const data = dataFolder();
    const file = join(data, 'relay.db');
    assert.equal(await runMigrate({ data }, false, io), 0);
    const newer = SCHEMA_VERSION + 1;
    const raw = new Database(file);
    raw.prepare('INSERT INTO relay_schema (version, applied_at) VALUES (?, 0)').run(newer);
    raw.close();
    printed.out.length = 0;
    const says = `its schema is version ${newer}, newer than this notify-relay understands (${SCHEMA_VERSION}); upgrade notify-relay, or use the release that wrote it`;

    assert.equal(await runMigrate({ data }, true, io), 1, '--check never calls a newer database current');
    assert.deepEqual(printed.err, [`${file}: ${says}.`]);
    assert.equal(await runMigrate({ data }, false, io), 1);
    assert.equal(printed.err[1], `notify-relay migrate failed on ${file}: ${says}`);
    assert.deepEqual(printed.out, []);

    const after = new Database(file, { readonly: true });
    const versions = after.prepare('SELECT version FROM relay_schema ORDER BY version').pluck().all();
    after.close();
    assert.deepEqual(versions, [1, 2, newer]);
  });
});

describe('notify-relay migrate on PostgreSQL', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgres();
  });
  after(() => postgres.stop());

  it('returns with no connection left open, so a deploy goes on to its next step', async () => {
    const database = postgres.createDatabase();
    const io = { stdout: lineSink([]), stderr: lineSink([]) };
    assert.equal(await runMigrate({ database }, false, io), 0);
    assert.equal(await runMigrate({ database }, true, io), 0);
    assert.equal(await connectionsLeftTo(postgres, database), 0, 'the command leaves no connection open');
  });
});
