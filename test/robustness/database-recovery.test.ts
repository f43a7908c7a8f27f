import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/database.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import { OutboxStore } from '../../src/store/outbox-store.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { createTempHome, startBroker, type TempHome } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

const TABLES = [
  'notifications',
  'providers',
  'provider_secrets',
  'routes',
  'outbox',
  'choices',
  'outbox_intake',
  'web_sessions',
];
const NOTIFICATIONS = 1500;
const SENT = 400;
const WAITING_IN_INTAKE = 40;

/**
 * A database with a row in every table, made as a user makes it: a provider with a secret and a route
 * through the real broker (which records where the secrets key lives), then many notifications, outbox
 * items and intake rows through the stores.
 */
async function populate(home: TempHome): Promise<void> {
  const broker = await startBroker({ home });
  try {
    const provider = await broker.request('POST', '/v1/providers', {
      kind: 'webhook',
      name: 'phone',
      settings: {
        url: 'http://127.0.0.1:9/hook',
        signingSecret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
    });
    assert.equal(provider.status, 201);
    const providerId = ((await provider.json()) as { id: string }).id;
    const route = await broker.request('POST', '/v1/routes', { providerId, minimumPriority: 'low' });
    assert.equal(route.status, 201);
    const link = (await (await broker.request('POST', '/v1/web/login-codes')).json()) as { url: string };
    assert.equal((await fetch(link.url, { redirect: 'manual' })).status, 303, 'a web page session');
  } finally {
    await broker.stop();
  }
  const db = openDatabase(home.databaseFile);
  const { routeId, providerId } = db
    .prepare('SELECT id AS routeId, provider_id AS providerId FROM routes')
    .get() as {
    routeId: string;
    providerId: string;
  };
  const notifications = new NotificationStore(db);
  const outbox = new OutboxStore(db);
  const item = { routeId, providerId, operation: 'send' as const, includeMessage: true };
  db.transaction(() => {
    for (let i = 0; i < NOTIFICATIONS; i++) {
      const id = `id-${i}`;
      const event = i % 3 === 0 ? { event: { senderId: 'agent-a', eventId: `event-${i}` } } : {};
      notifications.upsert(
        id,
        { agent: 'a', type: 'info', priority: 'normal', title: `n${i}`, message: `${i} ${'m'.repeat(500)}` },
        1_700_000_000_000 + i,
        event,
      );
      if (i < SENT) outbox.enqueue(id, [item], 1_700_000_000_000 + i);
    }
  })();
  outbox.expandIntake();
  db.transaction(() => {
    for (let i = SENT; i < SENT + WAITING_IN_INTAKE; i++)
      outbox.enqueue(`id-${i}`, [item], 1_700_000_000_000 + i);
  })();
  db.close(); // the last connection checkpoints: every row is in the main file
}

/** Every row of every table, as comparable text, without SQLite's rowid. */
function snapshot(file: string): Map<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    return new Map(
      TABLES.map((table) => [
        table,
        db
          .prepare(`SELECT * FROM ${table} ORDER BY rowid`)
          .all()
          // A blob (a sealed secret) becomes its bytes: compared byte for byte.
          .map((row) => JSON.stringify(row)),
      ]),
    );
  } finally {
    db.close();
  }
}

/** The pages of one b-tree (a table or an index) of the kind given, in file order. */
function pagesOf(file: string, name: string, pagetype: 'leaf' | 'internal'): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[string, string], { pageno: number }>(
        'SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno',
      )
      .all(name, pagetype)
      .map((row) => row.pageno);
  } finally {
    db.close();
  }
}

/** Overwrites whole pages with garbage, as a failing disk or a stray write would. */
function overwritePages(file: string, pages: number[]): void {
  const fd = openSync(file, 'r+');
  try {
    for (const page of pages) writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (page - 1) * 4096);
  } finally {
    closeSync(fd);
  }
}

/** A few pages from the middle of a list. */
function middle(pages: number[], count: number): number[] {
  const start = Math.floor(pages.length / 2);
  return pages.slice(start, start + count);
}

/** `table -> [recovered, could not be read]` from the per-table lines of `notifyctl db recover`. */
function tableLines(stdout: string): Map<string, [number, number]> {
  const counts = new Map<string, [number, number]>();
  for (const table of TABLES) {
    const match = new RegExp(`^  ${table} +(\\d+) rows? recovered(?:, (\\d+) could not be read)?$`, 'm').exec(
      stdout,
    );
    assert.ok(match, `no line for ${table} in:\n${stdout}`);
    counts.set(table, [Number(match[1]), Number(match[2] ?? 0)]);
  }
  return counts;
}

function damagedCopyOf(home: TempHome, stdout: string): string {
  const match = /^The new database is (.+); the damaged file is kept as (.+)$/m.exec(stdout);
  assert.ok(match, stdout);
  assert.equal(match[1], home.databaseFile);
  assert.equal(dirname(match[2]!), dirname(home.databaseFile));
  assert.match(basename(match[2]!), /^notify\.db\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
  return match[2]!;
}

describe('notifyctl db recover keeps every table', { timeout: 120_000 }, () => {
  it('copies every readable row of every table from a file with damaged pages, says per table what was lost, keeps the damaged file untouched and exits 2', async () => {
    const home = createTempHome();
    try {
      await populate(home);
      const before = snapshot(home.databaseFile);
      for (const table of TABLES) assert.ok(before.get(table)!.length > 0, `${table} is populated`);
      overwritePages(home.databaseFile, [
        ...middle(pagesOf(home.databaseFile, 'notifications', 'leaf'), 3),
        ...middle(pagesOf(home.databaseFile, 'outbox', 'leaf'), 2),
      ]);
      const damagedBytes = readFileSync(home.databaseFile);

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 2, recovery.stdout + recovery.stderr);
      assert.equal(
        recovery.stderr,
        'notifyctl db recover: some rows could not be recovered (listed above); the damaged file still holds them\n',
      );
      const after = snapshot(home.databaseFile);
      const lines = tableLines(recovery.stdout);
      for (const table of TABLES) {
        const rowsBefore = new Set(before.get(table));
        const rowsAfter = after.get(table)!;
        for (const row of rowsAfter)
          assert.ok(rowsBefore.has(row), `${table}: a row changed or appeared: ${row}`);
        const [recovered, unread] = lines.get(table)!;
        assert.equal(recovered, rowsAfter.length, table);
        // The damaged file's indexes still list the rows of the lost pages: their number is exact.
        assert.equal(recovered + unread, rowsBefore.size, table);
        if (table === 'notifications' || table === 'outbox') {
          assert.ok(unread > 0 && recovered > 0, `${table}: ${recovered} recovered, ${unread} lost`);
        } else {
          assert.deepEqual(rowsAfter, before.get(table), `${table} is whole`);
        }
      }
      assert.deepEqual(readFileSync(damagedCopyOf(home, recovery.stdout)), damagedBytes);

      const broker = await startBroker({ home });
      try {
        const providers = (await (await broker.request('GET', '/v1/providers')).json()) as {
          name: string;
          secrets: Record<string, boolean>;
        }[];
        assert.deepEqual(
          providers.map((provider) => [provider.name, provider.secrets]),
          [['phone', { signingSecret: true, bearerToken: false, headerValue: false }]],
        );
        assert.equal(((await (await broker.request('GET', '/v1/routes')).json()) as unknown[]).length, 1);
      } finally {
        await broker.stop();
      }
    } finally {
      home.cleanup();
    }
  });

  it('says rows may be lost, and exits 2, when the damaged pages leave the number of unreadable rows unknown', async () => {
    const home = createTempHome();
    try {
      await populate(home);
      const probe = new Database(home.databaseFile, { readonly: true });
      const indexes = probe
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notifications'",
        )
        .all()
        .map((row) => row.name);
      probe.close();
      // Table pages and every page of every index of the table: nothing is left to count the lost rows.
      overwritePages(home.databaseFile, [
        ...middle(pagesOf(home.databaseFile, 'notifications', 'leaf'), 3),
        ...indexes.flatMap((index) => [
          ...pagesOf(home.databaseFile, index, 'leaf'),
          ...pagesOf(home.databaseFile, index, 'internal'),
        ]),
      ]);

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 2, recovery.stdout + recovery.stderr);
      assert.match(
        recovery.stdout,
        /^ {2}notifications +\d+ rows recovered, (an unknown number|\d+ or more) could not be read$/m,
      );
      assert.equal(
        recovery.stderr,
        'notifyctl db recover: some rows could not be recovered (listed above); the damaged file still holds them\n',
      );
    } finally {
      home.cleanup();
    }
  });

  it('loses nothing and exits 0 when only index pages are damaged', async () => {
    const home = createTempHome();
    try {
      await populate(home);
      const before = snapshot(home.databaseFile);
      overwritePages(home.databaseFile, [
        ...middle(pagesOf(home.databaseFile, 'notifications_status', 'leaf'), 2),
        ...middle(pagesOf(home.databaseFile, 'outbox_state', 'leaf'), 1),
      ]);

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 0, recovery.stdout + recovery.stderr);
      assert.equal(recovery.stderr, '');
      assert.doesNotMatch(recovery.stdout, /LOST|could not be read/);
      const lines = tableLines(recovery.stdout);
      const after = snapshot(home.databaseFile);
      for (const table of TABLES) {
        assert.deepEqual(after.get(table), before.get(table), table);
        assert.deepEqual(lines.get(table), [before.get(table)!.length, 0], table);
      }
      damagedCopyOf(home, recovery.stdout);
    } finally {
      home.cleanup();
    }
  });

  it(
    "refuses a view, a virtual table and a computed column under the schema's names without reading them, and finishes",
    { timeout: 30_000 },
    async () => {
      const home = createTempHome();
      try {
        const file = home.databaseFile;
        openDatabase(file).close();
        const db = new Database(file);
        db.exec(`
        PRAGMA foreign_keys = OFF;
        DROP TABLE notifications;
        -- Reading this view never ends: it was how a file held the old recovery until it was killed.
        CREATE VIEW notifications AS
          WITH RECURSIVE endless(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM endless)
          SELECT n AS seq, 'id' || n AS id, NULL AS key, 'a' AS agent, NULL AS agent_instance,
            NULL AS project, 'info' AS type, 'normal' AS priority, 't' AS title, 'm' AS message, NULL AS cwd,
            NULL AS pid, 'active' AS status, n AS created_at, n AS updated_at, NULL AS resolved_at,
            NULL AS metadata, NULL AS arc_sender_id, NULL AS arc_event_id
          FROM endless;
        DROP TABLE routes;
        CREATE VIRTUAL TABLE routes USING fts5(id, name);
        DROP TABLE providers;
        CREATE TABLE providers (id TEXT PRIMARY KEY, kind TEXT, settings TEXT, created_at INTEGER,
          updated_at INTEGER, enabled INTEGER,
          name TEXT GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL);
        INSERT INTO choices (name, value) VALUES ('kept', 'yes');
      `);
        db.close();

        const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
        assert.equal(recovery.code, 2, recovery.stdout + recovery.stderr);
        assert.match(
          recovery.stdout,
          /^ {2}notifications +LOST: refused, it is a view, not a table; nothing was read from it$/m,
        );
        assert.match(
          recovery.stdout,
          /^ {2}routes +LOST: refused, it is a virtual table, not a plain one; nothing was read from it$/m,
        );
        assert.match(
          recovery.stdout,
          /^ {2}providers +LOST: refused, its column name is computed, not stored; nothing was read from it$/m,
        );
        assert.match(recovery.stdout, /^ {2}choices +1 row recovered$/m);
        const recovered = new Database(file, { readonly: true });
        try {
          assert.deepEqual(recovered.prepare('SELECT name, value FROM choices').all(), [
            { name: 'kept', value: 'yes' },
          ]);
          const kinds = recovered
            .prepare(`SELECT type FROM sqlite_master WHERE name IN ('notifications', 'routes', 'providers')`)
            .all();
          assert.deepEqual(kinds, [{ type: 'table' }, { type: 'table' }, { type: 'table' }]);
        } finally {
          recovered.close();
        }
      } finally {
        home.cleanup();
      }
    },
  );

  it("neither runs nor copies triggers and views that are not Notify's, says so, and exits 0 when nothing was lost", async () => {
    const home = createTempHome();
    try {
      const file = home.databaseFile;
      const db = openDatabase(file);
      new NotificationStore(db).upsert(
        'id-1',
        { agent: 'a', type: 'info', priority: 'normal', title: 't', message: 'm' },
        1,
      );
      db.exec(`
        CREATE TABLE stolen (body TEXT);
        CREATE TRIGGER steal AFTER INSERT ON notifications BEGIN INSERT INTO stolen VALUES (NEW.message); END;
        CREATE TRIGGER outbox_intake_before_update_x BEFORE DELETE ON choices BEGIN SELECT RAISE(ABORT, 'no'); END;
        CREATE VIEW everything AS SELECT * FROM notifications;
        CREATE VIEW "clear\x1b[2J" AS SELECT 1;
      `);
      db.close();

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 0, recovery.stdout + recovery.stderr);
      assert.match(recovery.stdout, /^ {2}notifications +1 row recovered$/m);
      assert.ok(!recovery.stdout.includes('\x1b'), 'an escape sequence from the file reaches the terminal');
      assert.match(
        recovery.stdout,
        /^Not part of Notify's schema, neither read nor copied: table stolen, trigger steal, trigger outbox_intake_before_update_x, view everything, view clear\\x1b\[2J$/m,
      );
      const recovered = new Database(file, { readonly: true });
      try {
        const names = recovered
          .prepare<[], { name: string }>(
            `SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view') OR name = 'stolen' ORDER BY name`,
          )
          .all()
          .map((row) => row.name);
        assert.deepEqual(names, ['outbox_intake_before_delete', 'outbox_intake_before_update']);
      } finally {
        recovered.close();
      }
    } finally {
      home.cleanup();
    }
  });

  it('leaves out and counts rows that break a rule of the schema, and exits 2', async () => {
    const home = createTempHome();
    try {
      const file = home.databaseFile;
      openDatabase(file).close();
      const db = new Database(file);
      db.exec(`
        PRAGMA foreign_keys = OFF;
        DROP INDEX notifications_active_key;
        INSERT INTO notifications (seq, id, key, agent, type, priority, title, message, status, created_at, updated_at)
          VALUES (1, 'first', 'build', 'a', 'info', 'normal', 't', 'm', 'active', 1, 1),
                 (2, 'second', 'build', 'a', 'info', 'normal', 't', 'm', 'active', 2, 2);
        INSERT INTO provider_secrets (provider_id, name, sealed) VALUES ('gone', 'token', x'00');
      `);
      db.close();

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 2, recovery.stdout + recovery.stderr);
      assert.match(
        recovery.stdout,
        /^ {2}notifications +1 row recovered, 1 left out \(they break a rule of the schema\)$/m,
      );
      assert.match(
        recovery.stdout,
        /^ {2}provider_secrets +0 rows recovered, 1 left out \(they break a rule of the schema\)$/m,
      );
      const recovered = new Database(file, { readonly: true });
      try {
        assert.deepEqual(recovered.prepare('SELECT id FROM notifications').all(), [{ id: 'first' }]);
        assert.deepEqual(recovered.prepare('SELECT * FROM provider_secrets').all(), []);
      } finally {
        recovered.close();
      }
    } finally {
      home.cleanup();
    }
  });

  it('recovers the rows a killed broker left in the write-ahead log, and keeps that log beside the damaged copy', async () => {
    const home = createTempHome();
    try {
      // A process that writes and dies before SQLite copies its log into the main file.
      const writer = `
        import { openDatabase } from ${JSON.stringify(new URL('../../src/store/database.js', import.meta.url).href)};
        import { NotificationStore } from ${JSON.stringify(new URL('../../src/store/notification-store.js', import.meta.url).href)};
        const db = openDatabase(${JSON.stringify(home.databaseFile)});
        db.pragma('wal_autocheckpoint = 0');
        const store = new NotificationStore(db);
        for (let i = 0; i < 50; i++)
          store.upsert('id-' + i, { agent: 'a', type: 'info', priority: 'normal', title: 't', message: 'm' }, i);
        process.kill(process.pid, 'SIGKILL');`;
      spawnSync(process.execPath, ['--input-type=module', '-e', writer]);
      const wal = readFileSync(`${home.databaseFile}-wal`);
      assert.ok(wal.length > 0, 'the rows are in the log');

      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 0, recovery.stdout + recovery.stderr);
      assert.match(recovery.stdout, /^ {2}notifications +50 rows recovered$/m);
      assert.deepEqual(readFileSync(`${damagedCopyOf(home, recovery.stdout)}-wal`), wal);
    } finally {
      home.cleanup();
    }
  });

  it('changes nothing and exits 1 for a database of a newer Notify', async () => {
    const home = createTempHome();
    try {
      openDatabase(home.databaseFile).close();
      const db = new Database(home.databaseFile);
      db.pragma('user_version = 99');
      db.close();
      const bytes = readFileSync(home.databaseFile);
      const recovery = await runNotifyctl(['db', 'recover'], { env: home.env });
      assert.equal(recovery.code, 1);
      assert.equal(
        recovery.stderr,
        `notifyctl db recover: the damaged database's schema is version 99, newer than this Notify understands (${MIGRATIONS.at(-1)!.version}); recover it with the newer Notify\n`,
      );
      assert.deepEqual(readFileSync(home.databaseFile), bytes);
      assert.deepEqual(
        readdirSync(dirname(home.databaseFile)).filter((name) => name.startsWith('notify.db.')),
        [],
      );
    } finally {
      home.cleanup();
    }
  });

  it('stops at its time limit, changing nothing, and says how to give it longer', async () => {
    const home = createTempHome();
    try {
      await populate(home);
      const bytes = readFileSync(home.databaseFile);
      const recovery = await runNotifyctl(['db', 'recover', '--time-limit', '0.01'], { env: home.env });
      assert.equal(recovery.code, 1, recovery.stdout + recovery.stderr);
      assert.equal(recovery.stdout, '');
      assert.equal(
        recovery.stderr,
        'notifyctl db recover: the recovery did not finish within 0.01 s and was stopped; nothing was changed\n' +
          "A large database can take longer: run 'notifyctl db recover --time-limit <seconds>'.\n",
      );
      assert.deepEqual(readFileSync(home.databaseFile), bytes);
      assert.deepEqual(
        readdirSync(dirname(home.databaseFile)).filter(
          (name) => name.startsWith('notify.db') && name !== 'notify.db-shm',
        ),
        ['notify.db'],
      );
      assert.ok(!existsSync(join(dirname(home.databaseFile), 'notifyd.lock')), 'the data folder is unlocked');
    } finally {
      home.cleanup();
    }
  });
});
