/**
 * A serving notify-relay's life in process (src/relay-server/run-relay.ts): the purge every ten
 * minutes removing what has expired, a failed purge logged and tried again, and SIGTERM or SIGINT
 * stopping it with every part closed: the port freed, the purge timer cleared, the database closed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, afterEach, describe, it } from 'node:test';
import { addDevice } from '../relay/push-support.js';
import { PushService } from '../support/push-service.js';
import { deliver, delivered, pairSender, setUpOperator } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor, within } from '../support/wait-for.js';
import { ManualTimers } from './manual-timers.js';
import { listeningUrl, movableClock, run, served, stopAll } from './relay-run.js';

const folder = mkdtempSync(join(tmpdir(), 'notify-relay-life-'));
let folders = 0;
afterEach(stopAll);
after(() => rmSync(folder, { recursive: true, force: true }));

const newData = (): string => join(folder, `data-${++folders}`);
const CONTACT = ['--contact', 'mailto:ops@example.org'];
const TEN_MINUTES = 600_000;

/** Whether something accepts connections on the address. */
function accepting(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const busRows = (db: DatabaseSync): number =>
  (db.prepare('SELECT count(*) AS n FROM relay_bus').get() as { n: number }).n;

describe('notify-relay serving, in process', () => {
  it('purges expired rows every ten minutes, and logs a purge that failed and tries again', async () => {
    const data = newData();
    const timers = new ManualTimers();
    const relay = run(['--data', data, '--port', '0', ...CONTACT], { timers });
    await listeningUrl(relay);
    await waitFor(() => timers.waiting === 1, 'the purge timer');
    assert.deepEqual(timers.delays, [TEN_MINUTES]);
    const db = new DatabaseSync(join(data, 'relay.db'));
    try {
      db.exec("INSERT INTO relay_bus (payload, created_at) VALUES ('{}', 0)");
      timers.fire();
      await waitFor(() => busRows(db) === 0, 'the expired bus message to be purged');
      assert.deepEqual(timers.delays, [TEN_MINUTES, TEN_MINUTES]);
      // A table gone makes every purge fail until it is back, as a database away for a moment would.
      db.exec("INSERT INTO relay_bus (payload, created_at) VALUES ('{}', 0)");
      db.exec('ALTER TABLE relay_bus RENAME TO relay_bus_away');
      timers.fire();
      await waitFor(() => relay.stderr() !== '', 'the failed purge logged');
      assert.match(relay.stderr(), /^\d{4}-\d\d-\d\dT[\d:.]+Z \[ERROR\] purge: no such table: relay_bus\n$/);
      assert.equal(timers.waiting, 1);
      db.exec('ALTER TABLE relay_bus_away RENAME TO relay_bus');
      timers.fire();
      await waitFor(() => busRows(db) === 0, 'the next purge, with the table back');
    } finally {
      db.close();
    }
    assert.equal(await relay.stop(), 0);
    assert.equal(timers.waiting, 0);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} stops it: exit 0, the port freed, the database closed`, async () => {
      const data = newData();
      const relay = run(['--data', data, '--port', '0', ...CONTACT]);
      const url = await listeningUrl(relay);
      assert.equal(await accepting(url), true);
      assert.equal(await relay.stop(signal), 0);
      assert.equal(await accepting(url), false);
      // SQLite folds its write-ahead log back into relay.db when the last connection closes.
      assert.equal(existsSync(join(data, 'relay.db-wal')), false);
    });
  }

  it('--drain: after SIGTERM /readyz answers 503 while everything else still serves, and the relay stops when the drain is over', async () => {
    const timers = new ManualTimers();
    const relay = run(['--data', newData(), '--port', '0', '--drain', '7', ...CONTACT], { timers });
    const { url } = await served(relay);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const drainAsked = timers.delays.length;
    const exited = relay.stop();
    await waitFor(() => timers.delays.length > drainAsked, 'the drain timer');
    assert.equal(timers.delays.at(-1), 7000);
    const ready = await fetch(`${url}/readyz`);
    assert.equal(ready.status, 503);
    await ready.text();
    const page = await fetch(`${url}/sign-in`);
    assert.equal(page.status, 200, 'pages and the API still answer while the balancer moves people away');
    await page.text();
    assert.equal(await accepting(url), true);
    timers.fire();
    assert.equal(await exited, 0);
    assert.equal(await accepting(url), false);
  });

  it('--drain: a second signal stops the relay without waiting for the drain', async () => {
    const timers = new ManualTimers();
    const relay = run(['--data', newData(), '--port', '0', '--drain', '300', ...CONTACT], { timers });
    const { url } = await served(relay);
    const drainAsked = timers.delays.length;
    void relay.stop('SIGTERM');
    await waitFor(() => timers.delays.length > drainAsked, 'the drain timer');
    assert.equal(await relay.stop('SIGINT'), 0);
    assert.equal(await accepting(url), false);
    assert.equal(timers.waiting, 0, 'no timer left behind');
  });

  it('SIGTERM with an inbox open: the page is told to come back in a second, and the relay still exits 0', async () => {
    const relay = run(['--data', newData(), '--port', '0', ...CONTACT]);
    const address = await served(relay);
    const operator = await setUpOperator(address);
    const inbox = new SseReader(address.port, { cookie: operator.cookieHeader() }, '/v1/inbox/stream');
    try {
      await inbox.until((stream) => stream.text === 'retry: 5000\n\n');
      assert.equal(await relay.stop(), 0);
      await within(inbox.ended, 'the inbox stream to end');
      assert.equal(inbox.text, 'retry: 5000\n\nretry: 1000\n\n');
    } finally {
      inbox.close();
    }
  });

  it("pushes each delivery to the person's phone, signed with a placeholder contact when given none", async () => {
    const service = await PushService.start();
    try {
      const clock = movableClock();
      const relay = run(['--data', newData(), '--port', '0', '--allow-loopback-push'], { env: clock.env });
      const address = await served(relay);
      const operator = await setUpOperator(address);
      const sender = await pairSender({ ...address, advance: clock.advance }, operator);
      const phone = await addDevice(operator, service);
      const sent = await deliver(address, sender.credential, 'n_pushed', delivered());
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      const push = await waitFor(() => service.received[0], 'the push at the phone');
      assert.equal(push.subscription, phone.subscription.endpoint.split('/').pop());
      assert.equal(push.payload['id'], 'n_pushed');
      assert.equal(push.sender, 'mailto:operator@notify-relay.invalid');
      assert.deepEqual(service.refused, []);
      assert.equal(await relay.stop(), 0);
    } finally {
      await service.stop();
    }
  });
});
