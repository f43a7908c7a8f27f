/**
 * notify-relay served from PostgreSQL, in process (`runRelay` of src/relay-server/run-relay.ts): two
 * relays on one database hear each other through it, as processes behind one balancer do, and a
 * database that refuses LISTEN (a read-only standby) stops the start with the reason.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import { run, served, stopAll } from '../relay-units/relay-run.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { connectionsLeftTo } from '../support/postgres-connections.js';
import { OPERATOR, setUpOperator, WebSession } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { within } from '../support/wait-for.js';

const CONTACT = ['--contact', 'mailto:ops@example.org'];

let postgres: TestPostgres;
before(async () => {
  postgres = await startPostgres();
});
afterEach(stopAll);
after(() => postgres.stop());

describe('notify-relay on PostgreSQL, in process', () => {
  it('two relays on one database: signing out everywhere on one ends the inbox open on the other', async () => {
    const database = postgres.createDatabase();
    const first = run(['--database', database, '--port', '0', ...CONTACT]);
    const operator = await setUpOperator(await served(first));
    const second = run(['--database', database, '--port', '0', ...CONTACT]);
    const secondRelay = await served(second);
    const elsewhere = new WebSession(secondRelay);
    await elsewhere.get('/sign-in');
    assert.equal((await elsewhere.post('/sign-in', OPERATOR)).status, 303);
    const inbox = new SseReader(secondRelay.port, { cookie: elsewhere.cookieHeader() }, '/v1/inbox/stream');
    try {
      await inbox.until((stream) => stream.text.startsWith('retry: 5000\n\n'));
      await operator.get('/people');
      const revoked = await operator.post('/people/sessions/revoke-others', {});
      assert.match(revoked.text, /Signed out everywhere else \(1 session\)/);
      await within(inbox.ended, "the other relay's inbox to end with its session");
    } finally {
      inbox.close();
    }
    assert.equal(await first.stop(), 0);
    assert.equal(await second.stop(), 0);
    assert.equal(await connectionsLeftTo(postgres, database), 0, 'every connection given back at the stop');
  });

  it('a relay whose LISTEN connection dropped tells the inbox open on it to come back once it listens again: what it did not hear, the page reads afresh', async () => {
    const database = postgres.createDatabase();
    const relay = run(['--database', database, '--port', '0', ...CONTACT]);
    const address = await served(relay);
    const operator = await setUpOperator(address);
    const inbox = new SseReader(address.port, { cookie: operator.cookieHeader() }, '/v1/inbox/stream');
    try {
      await inbox.until((stream) => stream.text === 'retry: 5000\n\n');
      const db = new PostgresDatabase(database);
      try {
        await db.exec(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN notify_relay'",
        );
      } finally {
        await db.close();
      }
      await within(inbox.ended, 'the inbox to be told to come back');
      assert.equal(inbox.text, 'retry: 5000\n\nretry: 1000\n\n');
    } finally {
      inbox.close();
    }
    assert.equal(await relay.stop(), 0);
  });

  it('a database that refuses LISTEN (a read-only standby): says why, lets go of it, exit 1', async () => {
    const migrated = run(['migrate', '--database', postgres.url]);
    assert.equal(await within(migrated.exited, 'the migration'), 0, migrated.stderr());
    const standby = await postgres.startStandby();
    const relay = run(['--database', standby, '--port', '0', ...CONTACT]);
    assert.equal(await within(relay.exited, 'the failed start'), 1);
    assert.equal(
      relay.stderr(),
      'notify-relay cannot LISTEN on its database: cannot execute LISTEN during recovery\n',
    );
    assert.equal(relay.stdout(), '');
    assert.equal(
      await connectionsLeftTo({ url: standby }, standby),
      0,
      'the connection to the standby closed',
    );
  });
});
