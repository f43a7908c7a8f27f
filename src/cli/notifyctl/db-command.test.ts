import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createTempHome, type TempHome } from '../../../test/support/broker-process.js';
import { RecordedIo } from '../../../test/support/relay-in-process.js';
import { openDatabase } from '../../store/database.js';
import { MIGRATIONS } from '../../store/migrations.js';
import { schemaCatalog } from '../../store/schema-catalog.js';
import { COMMANDS } from './commands.js';
import { dbCommand, defaultTimeLimitSeconds, runDb } from './db-command.js';

/**
 * `notifyctl db recover` run in the test process against a real database file in a temp HOME, with
 * what it prints recorded: the exit code and the report a person reads after a damaged broker.
 */

const LOSSES =
  'notifyctl db recover: some rows could not be recovered (listed above); the damaged file still holds them\n';
const ROWS = 400;

describe('notifyctl db recover, in process', () => {
  let home: TempHome;
  let file: string;

  beforeEach(() => {
    home = createTempHome();
    file = home.databaseFile;
    mkdirSync(dirname(file), { recursive: true });
  });
  afterEach(() => home.cleanup());

  async function recover(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const io = new RecordedIo(home.env);
    const code = await runDb(['recover', ...args], io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  }

  /** The files of the data folder, the damaged copy's time replaced by `<time>`. */
  function dataFolder(): string[] {
    return readdirSync(dirname(file))
      .map((name) => name.replace(/damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z/, 'damaged-<time>'))
      .sort();
  }

  function keptCopy(): string {
    const name = readdirSync(dirname(file)).find((entry) => entry.startsWith('notify.db.damaged-'));
    assert.ok(name, 'the damaged file is kept');
    return join(dirname(file), name);
  }

  /**
   * `choices` with ROWS rows of about 600 bytes, a few to a page, then garbage over the header of the
   * page holding row 200; without `indexed`, the table has no index that could count what was lost.
   */
  function damagedChoices(indexed: boolean): { lostOnPage: number } {
    const db = openDatabase(file);
    if (!indexed) db.exec('DROP TABLE choices; CREATE TABLE choices (name TEXT, value TEXT)');
    const insert = db.prepare('INSERT INTO choices (name, value) VALUES (?, ?)');
    db.transaction(() => {
      for (let n = 0; n < ROWS; n++)
        insert.run(`k${n}`, `value ${String(n).padStart(4, '0')} `.padEnd(600, '.'));
    })();
    db.exec(
      "INSERT INTO providers (id, kind, name, settings, created_at, updated_at) VALUES ('p1', 'webhook', 'phone', '{}', 1, 1)",
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    const pageOf = (n: number) =>
      Math.floor(bytes.indexOf(`value ${String(n).padStart(4, '0')} `) / pageSize);
    const page = pageOf(200);
    const lostOnPage = Array.from({ length: ROWS }, (_, n) => n).filter((n) => pageOf(n) === page).length;
    bytes.fill(0xff, page * pageSize, page * pageSize + 16);
    writeFileSync(file, bytes);
    return { lostOnPage };
  }

  function rowsIn(table: string): number {
    const db = openDatabase(file);
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  }

  /** The report's table lines: every table of the schema in one column, `choices` as given. */
  function tableLines(choices: string, providers = '1 row recovered'): string[] {
    const names = schemaCatalog().tables.map((table) => table.name);
    const width = Math.max(...names.map((name) => name.length));
    return names.map((name) => {
      const outcome = name === 'choices' ? choices : name === 'providers' ? providers : '0 rows recovered';
      return `  ${name.padEnd(width)}  ${outcome}`;
    });
  }

  it('recovers a sound database whole, says so table by table, and exits 0', async () => {
    const db = openDatabase(file);
    db.exec("INSERT INTO choices (name, value) VALUES ('masterKey', 'keyring')");
    db.exec(
      "INSERT INTO providers (id, kind, name, settings, created_at, updated_at) VALUES ('p1', 'webhook', 'phone', '{}', 1, 1)",
    );
    db.close();
    const running = recover();
    assert.equal(
      readFileSync(join(dirname(file), 'notifyd.lock'), 'utf8'),
      `${process.pid} notifyctl db recover\n`,
      'a broker started meanwhile is told who holds the data folder',
    );
    const run = await running;
    assert.deepEqual(run, {
      code: 0,
      stdout: [
        'Recovered from the damaged database, table by table:',
        ...tableLines('1 row recovered'),
        `The new database is ${file}; the damaged file is kept as ${keptCopy()}`,
        '',
      ].join('\n'),
      stderr: '',
    });
    assert.deepEqual(dataFolder(), ['notify.db', 'notify.db.damaged-<time>']);
    assert.equal(rowsIn('choices'), 1);
  });

  it('counts the rows of a damaged page an index still lists, keeps the other tables whole, and exits 2', async () => {
    const { lostOnPage } = damagedChoices(true);
    const damaged = readFileSync(file);
    const run = await recover();
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(
      run.stdout.split('\n').slice(1, -2).join('\n'),
      tableLines(`${ROWS - lostOnPage} rows recovered, ${lostOnPage} could not be read`).join('\n'),
    );
    assert.equal(run.stderr, LOSSES);
    assert.deepEqual(readFileSync(keptCopy()), damaged, 'the damaged file is kept untouched');
    assert.equal(rowsIn('choices'), ROWS - lostOnPage);
    assert.equal(rowsIn('providers'), 1);
  });

  it('says rows may be lost, and exits 2, when no index can tell how many a damaged page held', async () => {
    const { lostOnPage } = damagedChoices(false);
    const run = await recover();
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(
      run.stdout.split('\n').slice(1, -2).join('\n'),
      tableLines(`${ROWS - lostOnPage} rows recovered, an unknown number could not be read`).join('\n'),
    );
    assert.equal(run.stderr, LOSSES);
  });

  it('changes nothing and exits 1 for a database of a newer Notify, without the time-limit advice', async () => {
    const db = openDatabase(file);
    db.pragma('user_version = 99');
    db.pragma('journal_mode = DELETE');
    db.close();
    const bytes = readFileSync(file);
    assert.deepEqual(await recover(), {
      code: 1,
      stdout: '',
      stderr: `notifyctl db recover: the damaged database's schema is version 99, newer than this Notify understands (${MIGRATIONS.at(-1)!.version}); recover it with the newer Notify\n`,
    });
    assert.deepEqual(readFileSync(file), bytes);
    assert.deepEqual(dataFolder(), ['notify.db'], 'the data folder is unlocked and holds no leftovers');
  });

  it('says there is no database when the data folder has none, and exits 1', async () => {
    assert.deepEqual(await recover(), {
      code: 1,
      stdout: '',
      stderr: `notifyctl db recover: there is no database at ${file}\n`,
    });
    assert.deepEqual(dataFolder(), []);
  });

  it('stops at the time limit given, changing nothing, and says how to give it longer', async () => {
    openDatabase(file).close();
    assert.deepEqual(await recover('--time-limit', '0.001'), {
      code: 1,
      stdout: '',
      stderr:
        'notifyctl db recover: the recovery did not finish within 0.001 s and was stopped; nothing was changed\n' +
        "A large database can take longer: run 'notifyctl db recover --time-limit <seconds>'.\n",
    });
    assert.deepEqual(dataFolder(), ['notify.db']);
    const run = await recover('--time-limit', '30');
    assert.equal(run.code, 0, run.stderr);
  });

  it('refuses, changing nothing, while a broker holds the data folder', async () => {
    openDatabase(file).close();
    const broker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'notifyd'], {
      stdio: 'ignore',
    });
    try {
      await new Promise((resolve) => broker.once('spawn', resolve));
      const lock = join(dirname(file), 'notifyd.lock');
      writeFileSync(lock, `${broker.pid} notifyd\n`);
      assert.deepEqual(await recover(), {
        code: 1,
        stdout: '',
        stderr: `notifyctl db recover: notifyd (pid ${broker.pid}) is using the data folder ${dirname(file)}; stop it first (or remove ${lock} if pid ${broker.pid} is not Notify)\n`,
      });
      assert.deepEqual(dataFolder(), ['notify.db', 'notifyd.lock']);
      assert.equal(readFileSync(lock, 'utf8'), `${broker.pid} notifyd\n`, "the broker's lock is left alone");
    } finally {
      broker.kill();
    }
  });

  it('refuses arguments it does not know, changing nothing', async () => {
    openDatabase(file).close();
    const refusals: [string[], string][] = [
      [[], "expected 'recover'"],
      [['recovr'], "expected 'recover'"],
      [['recover', '--force'], "unexpected argument '--force'"],
      [['recover', '--time-limit'], '--time-limit expects a number of seconds greater than 0'],
      [['recover', '--time-limit', '0'], "--time-limit expects a number of seconds greater than 0, got '0'"],
      [
        ['recover', '--time-limit', '-5'],
        "--time-limit expects a number of seconds greater than 0, got '-5'",
      ],
      [
        ['recover', '--time-limit', '5s'],
        "--time-limit expects a number of seconds greater than 0, got '5s'",
      ],
      [
        ['recover', '--time-limit', 'x5'],
        "--time-limit expects a number of seconds greater than 0, got 'x5'",
      ],
      [
        ['recover', '--time-limit', '1.'],
        "--time-limit expects a number of seconds greater than 0, got '1.'",
      ],
      [['recover', '--time-limit', '30', 'now'], "unexpected argument 'now'"],
    ];
    for (const [args, why] of refusals) {
      const io = new RecordedIo(home.env);
      assert.equal(await runDb(args, io), 1, args.join(' '));
      assert.deepEqual([io.stdout, io.stderr], ['', `notifyctl db: ${why}. Run 'notifyctl db --help'.\n`]);
    }
    assert.deepEqual(dataFolder(), ['notify.db']);
    assert.equal((await recover('--time-limit', '2.5')).code, 0, 'a decimal time limit is taken');
  });

  it('prints its help, with the default time limit, for --help and -h, changing nothing', async () => {
    openDatabase(file).close();
    for (const flag of ['--help', '-h']) {
      const io = new RecordedIo(home.env);
      assert.equal(await runDb(['recover', flag], io), 0);
      assert.equal(io.stdout, `${dbCommand.help!()}\n`);
      assert.equal(io.stderr, '');
    }
    assert.match(dbCommand.help!(), /^Usage: notifyctl db recover \[--time-limit <seconds>\]\n/);
    assert.match(dbCommand.help!(), /\(default:\s+60 s, plus 1 s for every 1 MiB of the database\)/);
    assert.match(dbCommand.help!(), /Exit codes: 0 every row was recovered; 1 nothing was changed/);
    assert.deepEqual(dataFolder(), ['notify.db']);
    assert.equal(existsSync(`${file}.recovering`), false);
  });

  it('gives a large database a second more for every MiB when no time limit is given', () => {
    assert.equal(defaultTimeLimitSeconds(file), 60, 'no file yet');
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 * 1024);
    assert.equal(defaultTimeLimitSeconds(file), 63);
    truncateSync(file, 3 * 1024 * 1024 + 1);
    assert.equal(defaultTimeLimitSeconds(file), 64);
  });

  it('is the notifyctl command db, listed with its summary, run with the process environment and output', async () => {
    assert.equal(
      COMMANDS.find((command) => command.name === 'db'),
      dbCommand,
    );
    assert.equal(dbCommand.summary, 'recover: save what can be read from a damaged database');
    assert.equal(await dbCommand.run(['recover', '--time-limit']), 1);
  });
});
