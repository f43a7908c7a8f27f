import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../src/store/database.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import {
  createTempHome,
  freePort,
  NOTIFYD,
  startBroker,
  writeConfig,
  type TempHome,
} from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

const ROWS = 3000;

function seed(home: TempHome): void {
  const db = openDatabase(home.databaseFile);
  const store = new NotificationStore(db);
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      store.upsert(
        `id-${i}`,
        { agent: 'a', type: 'info', priority: 'normal', title: `n${i}`, message: 'm'.repeat(500) },
        i,
      );
    }
  })();
  db.close(); // the last connection checkpoints: every row is in the main file
}

/** Overwrites one page in the middle of the file with garbage. */
function damagePage(file: string): void {
  const pages = statSync(file).size / 4096;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(pages / 2) * 4096);
  closeSync(fd);
}

const cases: { name: string; damage: (file: string) => void; someRowsRecovered: boolean }[] = [
  { name: 'a page inside the file overwritten', damage: damagePage, someRowsRecovered: true },
  {
    name: 'the file truncated to half',
    damage: (file) => truncateSync(file, Math.floor(statSync(file).size / 8192) * 4096),
    someRowsRecovered: true,
  },
  {
    name: 'a file that is not a database',
    damage: (file) => writeFileSync(file, Buffer.alloc(20_000, 'garbage ')),
    someRowsRecovered: false,
  },
];

describe('a damaged database', { timeout: 60_000 }, () => {
  for (const { name, damage, someRowsRecovered } of cases) {
    it(`with ${name}: notifyd refuses to start naming the file, and notifyctl db recover lets it start with what could be read`, async () => {
      const home = createTempHome();
      try {
        seed(home);
        damage(home.databaseFile);
        writeConfig(home, { port: await freePort() });

        const refused = await runNode(NOTIFYD, [], { env: home.env });
        assert.equal(refused.code, 1);
        const prefix = `Notify cannot start: the database ${home.databaseFile} is damaged (`;
        assert.ok(refused.stderr.startsWith(prefix), refused.stderr);
        assert.match(
          refused.stderr,
          /Run 'notifyctl db recover' to copy what can still be read into a new database/,
        );
        const log = readdirSync(home.logDir)
          .map((file) => readFileSync(join(home.logDir, file), 'utf8'))
          .join('');
        assert.match(log, /\[ERROR\] cannot start: the database .* is damaged/);

        const recovery = await runNode(NOTIFYCTL, ['db', 'recover'], { env: home.env });
        // Every case loses rows: the line says how many notifications were saved, the exit code that some were not.
        assert.equal(recovery.code, 2, recovery.stdout + recovery.stderr);
        const line =
          /^ {2}notifications +(?:(\d+) rows? recovered, .*could not be read|(LOST): could not be read \(file is not a database\))$/m.exec(
            recovery.stdout,
          );
        assert.ok(line, recovery.stdout);
        const recovered = Number(line[1] ?? 0);
        const kept = /^The new database is (.+); the damaged file is kept as (.+)$/m.exec(recovery.stdout);
        assert.ok(kept, recovery.stdout);
        assert.equal(kept[1], home.databaseFile);
        assert.ok(
          readdirSync(dirname(home.databaseFile)).some((file) => file.startsWith('notify.db.damaged-')),
        );
        // A damaged leaf loses its rows, a truncated file the rows past its end; the rest are read.
        if (someRowsRecovered)
          assert.ok(recovered > 0 && recovered < ROWS, `recovered ${recovered} of ${ROWS}`);
        else assert.equal(line[2], 'LOST');

        const broker = await startBroker({ home });
        try {
          const listed = (await (
            await broker.request('GET', '/v1/notifications?limit=500')
          ).json()) as unknown[];
          assert.equal(listed.length, Math.min(recovered, 500));
          assert.equal(
            (await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' })).status,
            201,
          );
        } finally {
          await broker.stop();
        }
      } finally {
        home.cleanup();
      }
    });
  }

  it('with a FIFO in place of the database: notifyd refuses at once instead of hanging', async () => {
    const home = createTempHome();
    try {
      mkdirSync(dirname(home.databaseFile), { recursive: true });
      execFileSync('mkfifo', [home.databaseFile]);
      writeConfig(home, { port: await freePort() });
      const refused = await runNode(NOTIFYD, [], { env: home.env });
      assert.equal(refused.code, 1);
      assert.ok(
        refused.stderr.startsWith(
          `Notify cannot start: the database ${home.databaseFile} is damaged (not a regular file); nothing was written to it.`,
        ),
        refused.stderr,
      );
    } finally {
      home.cleanup();
    }
  });

  it('notifyctl db recover refuses while the broker runs, naming it and its pid', async () => {
    const broker = await startBroker();
    try {
      const recovery = await runNode(NOTIFYCTL, ['db', 'recover'], { env: broker.home.env });
      assert.equal(recovery.code, 1);
      assert.match(
        recovery.stderr,
        new RegExp(
          `^notifyctl db recover: another Notify broker \\(pid ${broker.child.pid}\\) is using the data folder `,
        ),
      );
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });
});
