/**
 * notify-relay's commands in process (src/relay-server/run-relay.ts): help, version and a refused
 * option, and `migrate`, `export` and `import` dispatched to the database the command line names.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { RELAY_USAGE } from '../../src/relay-server/args.js';
import { openDatabase } from '../../src/relay-server/open-database.js';
import { RelayStore } from '../../src/relay-server/store.js';
import { SCHEMA_VERSION, schemaVersion } from '../../src/relay-server/store-migrations.js';
import { VERSION } from '../../src/version.js';
import { within } from '../support/wait-for.js';
import { run, stopAll } from './relay-run.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-commands-'));
let folders = 0;
afterEach(stopAll);
after(() => rmSync(folder, { recursive: true, force: true }));

const newData = (): string => join(folder, `data-${++folders}`);

/** Runs a command to its end: its exit code and what it printed. */
async function command(
  argv: string[],
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const relay = run(argv, stdin === undefined ? {} : { stdin });
  const code = await within(relay.exited, `notify-relay ${argv[0]}`);
  return { code, stdout: relay.stdout(), stderr: relay.stderr() };
}

async function schemaOf(data: string): Promise<number> {
  const db = openDatabase({ data });
  try {
    return await schemaVersion(db);
  } finally {
    await db.close();
  }
}

describe('notify-relay commands, in process', () => {
  it('--help prints the usage, --version the version, both exit 0', async () => {
    assert.deepEqual(await command(['--help']), { code: 0, stdout: `${RELAY_USAGE}\n`, stderr: '' });
    assert.deepEqual(await command(['--version']), {
      code: 0,
      stdout: `notify-relay ${VERSION}\n`,
      stderr: '',
    });
  });

  it('a refused option: the reason and where to look, exit 2', async () => {
    const refused = await command(['--port', 'many']);
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^.+\nRun 'notify-relay --help' for the options\.\n$/);
  });

  it('migrate brings the named database to the current schema, without serving it', async () => {
    const data = newData();
    const file = join(data, 'relay.db');
    const migrated = await command(['migrate', '--data', data]);
    assert.equal(migrated.code, 0);
    assert.match(
      migrated.stdout,
      new RegExp(`^${file}: applied migration\\(s\\) [\\d, ]+; schema version ${SCHEMA_VERSION}\\.\n$`),
    );
    assert.equal(await schemaOf(data), SCHEMA_VERSION);
    assert.deepEqual(await command(['migrate', '--check', '--data', data]), {
      code: 0,
      stdout: `${file}: schema version ${SCHEMA_VERSION}, current.\n`,
      stderr: '',
    });
    assert.equal((await command(['migrate', '--check', '--data', newData()])).code, 1);
  });

  it('export writes the named database to stdout, and import reads one from stdin', async () => {
    const from = newData();
    const store = await RelayStore.open(openDatabase({ data: from }));
    await store.insertUser({ id: 'u_1', username: 'ada', passwordHash: 'h', isOperator: true, createdAt: 1 });
    await store.close();
    const exported = await command(['export', '--data', from]);
    assert.equal(exported.code, 0);
    assert.match(exported.stdout, /"ada"/);
    const into = newData();
    const imported = await command(['import', '--data', into], exported.stdout);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(
      imported.stderr,
      new RegExp(`^notify-relay import into ${join(into, 'relay.db')}: 1 users, `),
    );
    assert.equal((await command(['export', '--data', into])).stdout, exported.stdout);
  });
});
