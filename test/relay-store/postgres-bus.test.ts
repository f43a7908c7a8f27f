/**
 * The bus between relay processes on one PostgreSQL database (docs/relay.md "Many people"), in process:
 * each "process" is its own pool, store, hub and bus, wired as src/relay-server/main.ts wires them, on
 * a throwaway cluster. What a person notices: a change made through one process reaches the live
 * streams held by every other, in order, and keeps doing so after the database went away for a moment.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Hub, type HubMessage } from '../../src/relay-server/hub.js';
import { startPostgresBus, type PostgresBus } from '../../src/relay-server/postgres-bus.js';
import { PostgresDatabase } from '../../src/relay-server/postgres-database.js';
import { relayLog } from '../../src/relay-server/relay-log.js';
import { RelayStore } from '../../src/relay-server/store.js';
import { lineSink } from '../support/caught-output.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.js';
import { waitFor, within } from '../support/wait-for.js';

let postgres: TestPostgres;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres.stop());

interface RelayProcessParts {
  store: RelayStore;
  hub: Hub;
  bus: PostgresBus;
  /** Every event this process's hub handed to its listeners, in order. */
  heard: string[];
  /** How many times the bus said messages may have gone unheard (it listened again). */
  missed(): number;
}

/** What every process's bus logged, one line each, as the operator reads it. */
const logged: string[] = [];
const log = relayLog({ stdout: lineSink(logged), stderr: lineSink(logged) }, Date.now);

/** A bus listener for a process that never gets that far. */
const NOT_LISTENING = { deliver: () => undefined, missed: () => undefined };

async function relayProcess(url: string): Promise<RelayProcessParts> {
  const store = await RelayStore.open(new PostgresDatabase(url));
  const hub = new Hub();
  const heard: string[] = [];
  hub.onEvent('i_laptop', (event) => heard.push(event.data));
  const counts = { missed: 0 };
  const bus = await startPostgresBus(
    store.db as PostgresDatabase,
    { deliver: (message) => hub.deliver(message), missed: () => counts.missed++ },
    Date.now,
    log,
  );
  hub.useBus((message) => bus.publish(message));
  return { store, hub, bus, heard, missed: () => counts.missed };
}

async function stopped(parts: RelayProcessParts): Promise<void> {
  await parts.bus.stop();
  await parts.store.close();
}

/** An answer event for the laptop's stream; `data` says which. */
function answer(data: string): HubMessage & { kind: 'event' } {
  return { kind: 'event', event: { id: 1, installationId: 'i_laptop', type: 'answer', data } };
}

/** A superuser's own connection, for what an operator or a failing server does to the database. */
async function asOperator(url: string, sql: string): Promise<void> {
  const db = new PostgresDatabase(url);
  try {
    await db.exec(sql);
  } finally {
    await db.close();
  }
}

/**
 * A process reaching its database through a hop that holds new connections, and the database
 * restarting under it: every connection dropped, the try to listen again waiting at the hop.
 */
async function restartedBehindProxy(): Promise<{ proxy: HoldingProxy; a: RelayProcessParts }> {
  const url = postgres.createDatabase();
  const proxy = await startHoldingProxy(postgres.port);
  try {
    const a = await relayProcess(url.replace(`:${postgres.port}/`, `:${proxy.port}/`));
    proxy.hold();
    await asOperator(
      url,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await waitFor(() => proxy.waiting > 0, 'the try to listen again, waiting for the database');
    return { proxy, a };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}

describe('the bus between relay processes on PostgreSQL', () => {
  beforeEach(() => {
    logged.length = 0;
  });

  it('what one process sends, every process hears (itself too), in the order sent, a message over NOTIFY’s 8000 bytes included', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      // A notification's full text can be far longer than NOTIFY carries; NOTIFY counts bytes, and
      // these 6 005 characters are 12 005 bytes.
      const long = `long ${'é'.repeat(6_000)}`;
      for (const data of ['first', long, 'last']) a.hub.emitEvent(answer(data).event);
      const expected = ['first', long, 'last'];
      await waitFor(() => b.heard.length === 3 && a.heard.length === 3, 'three answers in both processes');
      assert.deepEqual(b.heard, expected);
      assert.deepEqual(a.heard, expected);
      assert.deepEqual(logged, []);
      // Only the long one waited in relay_bus: a short one written there too is a write per message.
      const spilled = await a.store.db.get('SELECT COUNT(*) AS n FROM relay_bus');
      assert.equal(Number(spilled!['n']), 1);
    } finally {
      await stopped(a);
      await stopped(b);
    }
  });

  it('changes sent the moment their process stops (a rolling restart) still reach the others', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      const sent = ['one', `long ${'x'.repeat(8_000)}`, 'last before stopping'];
      for (const data of sent) a.hub.emitEvent(answer(data).event);
      await stopped(a);
      await waitFor(() => b.heard.length === 3, 'the answers on the other process');
      assert.deepEqual(b.heard, sent);
      assert.deepEqual(logged, []);
    } finally {
      await stopped(b);
    }
  });

  it('a stopped process hears nothing more: its listening connection goes back to the pool no longer listening', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      await a.bus.stop();
      // Its pool stays open a moment longer (the store closes next), and that connection with it.
      b.hub.emitEvent(answer('after the stop').event);
      await waitFor(() => b.heard.length === 1, 'the answer, heard by the process that sent it');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(a.heard, []);
    } finally {
      await a.store.close();
      await stopped(b);
    }
  });

  it('a notification naming a long message that is gone (purged an hour after it was written) is logged, and the messages after it arrive', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      await asOperator(url, "NOTIFY notify_relay, '@424242'");
      a.hub.emitEvent(answer('after the gone one').event);
      await waitFor(
        () => b.heard.length > 0 && a.heard.length > 0,
        'the answer after the gone one, in both processes',
      );
      assert.deepEqual(b.heard, ['after the gone one']);
      assert.equal(logged.length, 2);
      for (const line of logged)
        assert.match(
          line,
          /^\d{4}-\d\d-\d\dT[\d:.]+Z \[ERROR\] bus: a long message was gone before it was heard \(relay_bus row 424242\)$/,
        );
    } finally {
      await stopped(a);
      await stopped(b);
    }
  });

  it('a process whose listening connection the database dropped (a restart, a failover) hears the others again', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      await asOperator(
        url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN notify_relay'",
      );
      await waitFor(() => logged.length === 2, 'both processes telling of the dropped connection');
      for (const line of logged)
        assert.match(line, / \[ERROR\] bus: the LISTEN connection failed \(.+\); listening again$/);
      // Listening again, each says what was published meanwhile may be unheard, once.
      await waitFor(() => a.missed() === 1 && b.missed() === 1, 'both processes listening again');
      // Sent until heard: what is sent while no one listens is lost, as with any NOTIFY.
      let sent = 0;
      await waitFor(() => {
        a.hub.emitEvent(answer(`after the drop ${++sent}`).event);
        return b.heard.length > 0 && a.heard.length > 0;
      }, 'an answer heard again by both processes');
      assert.match(b.heard[0]!, /^after the drop \d+$/);
    } finally {
      await stopped(a);
      await stopped(b);
    }
  });

  it('after its database refused it for a few seconds, a process sends and hears again; the lost message is logged', async () => {
    const url = postgres.createDatabase();
    const name = new URL(url).pathname.slice(1);
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      await asOperator(postgres.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await asOperator(
        postgres.url,
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
      );
      a.hub.emitEvent(answer('while away').event);
      await waitFor(
        () => logged.some((line) => / \[ERROR\] bus: a message was not sent: /.test(line)),
        'the message that was not sent, logged',
      );
      // Longer than one wait before listening again (a second).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await asOperator(postgres.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      let sent = 0;
      await waitFor(
        () => {
          a.hub.emitEvent(answer(`back ${++sent}`).event);
          return b.heard.length > 0;
        },
        'an answer heard again by the other process',
        15_000,
      );
      assert.match(b.heard[0]!, /^back \d+$/);
      assert.equal(b.missed(), 1, 'listening again after the failed tries said so once');
      assert.ok(
        logged.some((line) => / \[ERROR\] bus: listening again failed \(.+\); trying again$/.test(line)),
        'each failed try to listen again is logged',
      );
    } finally {
      await asOperator(postgres.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await stopped(a);
      await stopped(b);
    }
  });
  it('a process stopped while its database is away stops trying to listen, and its stop completes', async () => {
    const url = postgres.createDatabase();
    const name = new URL(url).pathname.slice(1);
    const a = await relayProcess(url);
    try {
      await asOperator(postgres.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await asOperator(
        postgres.url,
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
      );
      await waitFor(() => logged.length > 0, 'the dropped connection, logged');
      await stopped(a);
      const told = logged.length;
      // Past the next try it would have made (a second after the drop).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      assert.deepEqual(logged.slice(told), [], 'no try after the stop');
    } finally {
      await asOperator(postgres.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
  });

  it('a process stopped while its database was coming back (SIGTERM during a restart) lets go of every connection, so it exits', async () => {
    const { proxy, a } = await restartedBehindProxy();
    try {
      const stopping = a.bus.stop();
      proxy.letThrough();
      // The pool closes only once every connection is back: one left listening keeps the process up.
      await within(
        stopping.then(() => a.store.close()),
        'the stopped process to close its connections',
      );
    } finally {
      await proxy.close();
    }
  });

  it('a process stopped while its database was failing to come back (SIGTERM during a restart) makes no try to listen after the stop, so it exits', async () => {
    const { proxy, a } = await restartedBehindProxy();
    try {
      const stopping = a.bus.stop();
      // The try under way at the stop fails: the one a second later would be the first after the stop.
      proxy.refuseWaiting();
      await within(stopping, 'the stop');
      const told = logged.length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(proxy.waiting, 0, 'no try to listen after the stop');
      assert.deepEqual(logged.slice(told), []);
      await within(a.store.close(), 'the stopped process to close its connections');
    } finally {
      await proxy.close();
    }
  });

  it('a process whose database refuses LISTEN (a read-only standby) says why and lets go of the connection, so it exits', async () => {
    const standby = new PostgresDatabase(await postgres.startStandby());
    await assert.rejects(
      startPostgresBus(standby, NOT_LISTENING, Date.now, log),
      /cannot execute LISTEN during recovery/,
    );
    await within(standby.close(), 'the process to close its connection to the standby');
  });

  it('a process whose connection drops during LISTEN at its start says so, once, and lets go of it, so it exits', async () => {
    const proxy = await startHoldingProxy(postgres.port);
    const url = postgres.createDatabase();
    const db = new PostgresDatabase(url.replace(`:${postgres.port}/`, `:${proxy.port}/`));
    try {
      proxy.cutOn('LISTEN');
      await assert.rejects(
        startPostgresBus(db, NOT_LISTENING, Date.now, log),
        /^Error: Connection terminated unexpectedly$/,
      );
      await within(db.close(), 'the process to close its connections');
      // The start failed, and says why: no try to listen again behind it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.deepEqual(logged, []);
    } finally {
      await proxy.close();
    }
  });

  it('a stray message on the relay channel (not a relay) is logged, and the relay messages after it arrive', async () => {
    const url = postgres.createDatabase();
    const [a, b] = [await relayProcess(url), await relayProcess(url)];
    try {
      await asOperator(url, "NOTIFY notify_relay, 'not a relay message'");
      a.hub.emitEvent(answer('after the stray one').event);
      await waitFor(
        () => b.heard.length > 0 && logged.length === 2,
        'the answer, and the stray message logged twice',
      );
      assert.deepEqual(b.heard, ['after the stray one']);
      for (const line of logged) assert.match(line, / \[ERROR\] bus: .*not valid JSON/);
    } finally {
      await stopped(a);
      await stopped(b);
    }
  });
});
