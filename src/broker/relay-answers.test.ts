import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ntfy } from '../delivery/providers/ntfy/ntfy.js';
import { followRelayEvents } from '../delivery/providers/relay/event-stream.js';
import { relay } from '../delivery/providers/relay/relay.js';
import { recordChoice } from '../store/choices-store.js';
import { openDatabase, type Db } from '../store/database.js';
import { NotificationStore } from '../store/notification-store.js';
import { WriteQueue } from '../store/write-queue.js';
import { InProcessDeliverer } from './deliverers/in-process-deliverer.js';
import { createIdGenerator } from './ids.js';
import { NotificationService } from './notification-service.js';
import { createOutbound, type Outbound } from './outbound.js';
import { relayAnswerSink } from './relay-answer-sink.js';

/** Resolves when `predicate` holds, checked every 5 ms; fails after `ms` naming what never came. */
async function within(ms: number, what: string, predicate: () => boolean, log?: string[]): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline)
      assert.fail(`${what} did not happen within ${ms} ms${log ? `:\n${log.join('\n')}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Connection {
  lastEventId: string | undefined;
  authorization: string | undefined;
  closed: boolean;
}

/**
 * A relay as docs/relay-protocol.md describes it, as much as notifyd uses: PUT and status of
 * notifications (lifecycles), and `GET /v1/events` with stored events replayed after Last-Event-ID.
 * The test decides what it refuses with, holds PUTs back (a delivery under way), and ends streams.
 */
class StandInRelay {
  url = '';
  readonly connections: Connection[] = [];
  refuseEvents: number | undefined;
  /** Streams asked for are kept waiting, never answered: the follower stays where it was. */
  holdStreams = false;
  #server: Server;
  #open = new Set<ServerResponse>();
  #events: { id: number; type: string; data: string }[] = [];
  #nextEventId = 40;
  #notifications = new Map<string, { lifecycle: number; status: string }>();
  #held: Promise<void> | undefined;

  constructor() {
    this.#server = createServer((request, response) => void this.handle(request, response));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** PUTs wait until the returned function is called. */
  holdDeliveries(): () => void {
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    return () => {
      this.#held = undefined;
      release();
    };
  }

  /** Stores an event and sends it to every open stream; returns its id. */
  send(type: string, data: Record<string, unknown> | string): string {
    return this.sendTogether([{ type, data }])[0]!;
  }

  /** Stores events and sends them in one write, so the broker reads them at once; returns their ids. */
  sendTogether(events: { type: string; data: Record<string, unknown> | string }[]): string[] {
    const stored = events.map(({ type, data }) => ({
      id: (this.#nextEventId += 3),
      type,
      data: typeof data === 'string' ? data : JSON.stringify(data),
    }));
    this.#events.push(...stored);
    for (const stream of this.#open) stream.write(stored.map(frame).join(''));
    return stored.map((event) => String(event.id));
  }

  /** Sends an event without an id to every open stream (it is not replayed). */
  sendUnnumbered(type: string, data: Record<string, unknown>): void {
    for (const stream of this.#open) stream.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  endStreams(): void {
    for (const stream of this.#open) stream.end();
    this.#open.clear();
  }

  openStreams(): number {
    return this.connections.filter((connection) => !connection.closed).length;
  }

  async close(): Promise<void> {
    this.endStreams();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const path = new URL(request.url ?? '/', this.url).pathname;
    if (request.method === 'GET' && path === '/v1/events') return this.stream(request, response);
    const status = /^\/v1\/notifications\/([^/]+)\/status$/.exec(path);
    if (request.method === 'POST' && status) {
      const stored = this.#notifications.get(decodeURIComponent(status[1]!));
      if (stored === undefined) return json(response, 404, { error: 'not_found' });
      stored.status = (JSON.parse(body) as { status: string }).status;
      return json(response, 200, { id: decodeURIComponent(status[1]!), ...stored });
    }
    const put = /^\/v1\/notifications\/([^/]+)$/.exec(path);
    if (request.method === 'PUT' && put) {
      await this.#held;
      const id = decodeURIComponent(put[1]!);
      const wanted = (JSON.parse(body) as { status: string }).status;
      const stored = this.#notifications.get(id);
      if (stored === undefined) {
        this.#notifications.set(id, { lifecycle: 1, status: wanted });
        return json(response, 201, { id, lifecycle: 1, status: wanted });
      }
      const reopened = wanted === 'active' && stored.status !== 'active';
      if (reopened) stored.lifecycle += 1;
      stored.status = wanted;
      return json(response, reopened ? 201 : 200, { id, ...stored });
    }
    json(response, 404, { error: 'not_found' });
  }

  private stream(request: IncomingMessage, response: ServerResponse): void {
    const header = request.headers['last-event-id'];
    const connection: Connection = {
      lastEventId: typeof header === 'string' ? header : undefined,
      authorization: request.headers.authorization,
      closed: false,
    };
    this.connections.push(connection);
    response.on('close', () => {
      connection.closed = true;
      this.#open.delete(response);
    });
    if (this.holdStreams) return;
    if (this.refuseEvents !== undefined) return json(response, this.refuseEvents, { error: 'refused' });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.write('retry: 5000\n\n');
    const after = connection.lastEventId === undefined ? 0 : Number(connection.lastEventId);
    for (const event of this.#events) if (event.id > after) response.write(frame(event));
    this.#open.add(response);
  }
}

function frame(event: { id: number; type: string; data: string }): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * Answers and status changes made on the phone reaching the broker through a paired relay (issue 39):
 * the real outbound wiring (outbox, dispatcher, the relay provider, the event stream follower) over a
 * real database, against a relay stand-in on a loopback port. What a person would notice: the right
 * notification answered once, an answer to an older question never answering a newer one, a relay that
 * refuses the credential not hammered, and a dropped stream resumed where it left off.
 */
describe('answers from a paired relay', () => {
  let folder: string;
  let db: Db;
  let writes: WriteQueue;
  let service: NotificationService;
  let outbound: Outbound;
  /** The outbound wiring over this test's database, as notifyd makes it at each start. */
  let build: (random?: () => number, defaultBackoff?: boolean) => Outbound;
  let stand: StandInRelay;
  let providerId: string;
  let logged: string[];
  let skew: number;

  const clock = () => Date.now() + skew;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'notify-relay-answers-'));
    db = openDatabase(join(folder, 'notify.db'));
    recordChoice(db, 'secrets.master_key_store', 'file');
    writes = new WriteQueue(db);
    logged = [];
    skew = 0;
    const log = {
      info: (line: string) => logged.push(`INFO ${line}`),
      warn: (line: string) => logged.push(`WARN ${line}`),
      error: (line: string) => logged.push(`ERROR ${line}`),
    };
    const newId = createIdGenerator(clock);
    build = (random = () => 0.5, defaultBackoff = false) =>
      createOutbound(
        db,
        {
          configDir: folder,
          configFile: join(folder, 'config.json'),
          dataDir: folder,
          databaseFile: join(folder, 'notify.db'),
          logDir: folder,
        },
        clock,
        newId,
        log,
        {
          kinds: [relay, ntfy],
          deliverer: new InProcessDeliverer([relay, ntfy]),
          random,
          ...(!defaultBackoff && { relayBackoff: { firstMs: 20, maxMs: 80 } }),
        },
      );
    outbound = build();
    service = new NotificationService({
      store: new NotificationStore(db),
      writes,
      clock,
      newId,
      types: () => ({}),
      withinWrite: (change) => outbound.enqueuer.enqueue(change),
    });
    stand = new StandInRelay();
    await stand.start();
    outbound.start();
    outbound.followRelays(relayAnswerSink(service));
    providerId = (
      await outbound.providers.create({
        kind: 'relay',
        settings: { url: stand.url, allowPrivate: true, credential: 'nrc_phone' },
      })
    ).id;
  });

  afterEach(async () => {
    await outbound.stop();
    await stand.close();
    writes.close();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Enables the relay and a route to it, and waits until its event stream is open. */
  const pair = async () => {
    const route = outbound.routes.create({ providerId });
    outbound.routes.setEnabled(route.id, true);
    await outbound.providers.update(providerId, { enabled: true });
    await listening();
  };
  const listening = () =>
    within(
      5000,
      'the event stream open',
      () => outbound.providers.get(providerId).listening?.state === 'listening',
    );
  const delivered = (id: string) => outbound.outboxStore.deliveredReferences(id, providerId);
  /** Waits until the relay confirmed `lifecycle` of the notification. */
  const deliveredAs = async (id: string, lifecycle: string) => {
    outbound.dispatcher.wake();
    await within(5000, `lifecycle ${lifecycle} delivered`, () => delivered(id).includes(lifecycle));
  };
  const ask = async () => {
    const { record } = await service.create({
      title: 'Run the tests?',
      message: 'npm test',
      type: 'permission_required',
      priority: 'high',
      key: `ask-${Math.random()}`,
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
      ],
    });
    await deliveredAs(record.id, '1');
    return record.id;
  };
  const answer = (id: string, lifecycle: number, action: string, revision?: number) =>
    stand.send('answer', {
      notification_id: id,
      lifecycle,
      action,
      ...(revision !== undefined && { revision }),
      answered_at: new Date().toISOString(),
    });
  /** An event whose effect shows; once it shows, every event sent before it was handled. */
  const marker = async () => {
    const { record } = await service.create({
      title: 'marker',
      message: 'm',
      type: 'info',
      priority: 'normal',
    });
    await deliveredAs(record.id, '1');
    stand.send('status', { notification_id: record.id, lifecycle: 1, status: 'resolved' });
    await within(5000, 'the marker event applied', () => service.get(record.id).status === 'resolved');
  };
  const logLine = (text: string) => logged.some((line) => line.includes(text));

  it('applies an answer given on the phone once: the first answer wins, a second one changes nothing', async () => {
    await pair();
    const id = await ask();
    answer(id, 1, 'allow', 1);
    await within(5000, 'the answer applied', () => service.get(id).status === 'resolved');
    assert.equal(service.get(id).answer?.action, 'allow');
    assert.equal(service.get(id).answer?.surface, 'relay');
    answer(id, 1, 'deny', 1);
    await marker();
    assert.equal(service.get(id).answer?.action, 'allow', 'the first answer stays');
    assert.ok(!logLine('dropped'), `an answer already given is no news: ${logged.join('\n')}`);
    assert.equal(stand.connections[0]?.authorization, 'Bearer nrc_phone');
  });

  it('dismisses a notification dismissed on the phone, resolves one resolved there, and leaves an ended one alone', async () => {
    await pair();
    const dismissed = await ask();
    const resolved = await ask();
    const ended = await ask();
    await service.dismiss(ended);
    stand.send('status', { notification_id: dismissed, lifecycle: 1, status: 'dismissed' });
    stand.send('status', { notification_id: resolved, lifecycle: 1, status: 'resolved' });
    stand.send('status', { notification_id: ended, lifecycle: 1, status: 'resolved' });
    await marker();
    assert.equal(service.get(dismissed).status, 'dismissed');
    assert.equal(service.get(resolved).status, 'resolved');
    assert.equal(service.get(ended).status, 'dismissed', 'an ended notification stays as it ended');
  });

  it('never lets an answer to the question before a reopening answer the reopened one', async () => {
    await pair();
    const id = await ask();
    await service.changeStatus(id, { status: 'resolved' });
    await service.changeStatus(id, { status: 'active' });
    await deliveredAs(id, '2');
    answer(id, 1, 'allow', service.get(id).revision);
    await marker();
    assert.equal(service.get(id).status, 'active', 'the old lifecycle answered nothing');
    assert.ok(
      logLine(
        `INFO relay: provider ${providerId}: answer for notification ${id} (lifecycle 1) dropped: not the lifecycle delivered there`,
      ),
      logged.join('\n'),
    );
    answer(id, 2, 'deny', service.get(id).revision);
    await within(5000, 'the answer to lifecycle 2 applied', () => service.get(id).status === 'resolved');
    assert.equal(service.get(id).answer?.action, 'deny');
  });

  it('refuses an answer to text the notification has since replaced, and says so once', async () => {
    await pair();
    const { record } = await service.create({
      title: 'Deploy?',
      message: 'to staging',
      type: 'permission_required',
      priority: 'high',
      key: 'deploy',
      actions: [{ id: 'allow', label: 'Allow' }],
    });
    await deliveredAs(record.id, '1');
    await service.create({
      title: 'Deploy?',
      message: 'to production',
      type: 'permission_required',
      priority: 'high',
      key: 'deploy',
      actions: [{ id: 'allow', label: 'Allow' }],
    });
    assert.equal(service.get(record.id).revision, 2);
    outbound.dispatcher.wake();
    await within(
      5000,
      'the update delivered',
      () => !outbound.outboxStore.hasUnsettled(record.id, providerId),
    );
    answer(record.id, 1, 'allow', 1);
    await marker();
    assert.equal(service.get(record.id).status, 'active', 'what the phone showed before approves nothing');
    const stale = logged.filter((line) => line.includes(`answer for notification ${record.id} dropped: `));
    assert.equal(stale.length, 1, logged.join('\n'));
    assert.match(stale[0]!, /^INFO /);
    answer(record.id, 1, 'allow', 2);
    await within(
      5000,
      'the answer to revision 2 applied',
      () => service.get(record.id).status === 'resolved',
    );
  });

  it('drops an answer from a relay that does not name the revision, and tells to update notify-relay', async () => {
    await pair();
    const id = await ask();
    answer(id, 1, 'allow');
    await marker();
    assert.equal(service.get(id).status, 'active');
    assert.ok(
      logLine(
        `WARN relay: provider ${providerId}: answer for notification ${id} dropped: the relay did not say which revision the person answered; update notify-relay`,
      ),
      logged.join('\n'),
    );
  });

  it('drops an answer the notification does not offer, with the reason, and keeps applying the ones after it', async () => {
    await pair();
    const id = await ask();
    answer(id, 1, 'maybe', 1);
    await marker();
    assert.equal(service.get(id).status, 'active');
    assert.ok(
      logged.some((line) =>
        line.startsWith(`WARN relay: provider ${providerId}: answer for notification ${id} dropped: `),
      ),
      logged.join('\n'),
    );
    assert.equal(stand.connections.length, 1, 'the stream stayed open');
  });

  it('holds an answer while the reopening it answers is still on its way to the relay, then applies it', async () => {
    await pair();
    const id = await ask();
    await service.changeStatus(id, { status: 'resolved' });
    await deliveredAs(id, '1');
    const release = stand.holdDeliveries();
    await service.changeStatus(id, { status: 'active' });
    outbound.dispatcher.wake();
    await within(5000, 'the reopening under way', () => outbound.outboxStore.hasUnsettled(id, providerId));
    answer(id, 2, 'allow', service.get(id).revision);
    await within(5000, 'the answer waiting', () =>
      logLine(
        `INFO relay: provider ${providerId}: answer for notification ${id} (lifecycle 2) waits for the delivery under way`,
      ),
    );
    await sleep(150);
    assert.equal(service.get(id).status, 'active', 'not applied before the relay confirmed lifecycle 2');
    release();
    await within(5000, 'the answer applied', () => service.get(id).status === 'resolved');
    assert.equal(service.get(id).answer?.action, 'allow');
    assert.equal(
      logged.filter((line) => line.includes('waits for the delivery under way')).length,
      1,
      'the wait is logged once',
    );
  });

  it('drops an answer to the old question that arrives while the reopening is on its way', async () => {
    await pair();
    const id = await ask();
    await service.changeStatus(id, { status: 'resolved' });
    await deliveredAs(id, '1');
    const release = stand.holdDeliveries();
    await service.changeStatus(id, { status: 'active' });
    outbound.dispatcher.wake();
    await within(5000, 'the reopening under way', () => outbound.outboxStore.hasUnsettled(id, providerId));
    answer(id, 1, 'allow', service.get(id).revision);
    await within(5000, 'the answer waiting', () => logLine('waits for the delivery under way'));
    release();
    await marker();
    assert.equal(service.get(id).status, 'active', 'lifecycle 1 was recorded, but the relay showed 2');
  });

  it('gives up waiting for a delivery that never settles, and drops the answer', async () => {
    await pair();
    const id = await ask();
    await service.changeStatus(id, { status: 'resolved' });
    await deliveredAs(id, '1');
    const release = stand.holdDeliveries();
    await service.changeStatus(id, { status: 'active' });
    outbound.dispatcher.wake();
    await within(5000, 'the reopening under way', () => outbound.outboxStore.hasUnsettled(id, providerId));
    answer(id, 2, 'allow', service.get(id).revision);
    await within(5000, 'the answer waiting', () => logLine('waits for the delivery under way'));
    skew = 19_000;
    await sleep(150);
    assert.ok(!logLine('(lifecycle 2) dropped'), 'still within the wait');
    skew = 20_500;
    await within(5000, 'the answer dropped', () =>
      logLine(`answer for notification ${id} (lifecycle 2) dropped: not the lifecycle delivered there`),
    );
    release();
    await marker();
    assert.equal(service.get(id).status, 'active');
  });

  it('resumes a dropped stream after the last event it applied, backing off 20, 40, 80, 80 ms while the relay fails', async () => {
    await pair();
    assert.equal(stand.connections[0]?.lastEventId, undefined, 'a first stream replays everything stored');
    const id = await ask();
    answer(id, 1, 'allow', 1);
    await within(5000, 'the answer applied', () => service.get(id).status === 'resolved');
    const unreadable = stand.send('answer', 'not json');
    await sleep(50);
    stand.refuseEvents = 500;
    stand.endStreams();
    await within(5000, 'four failed reconnects', () => stand.connections.length >= 5);
    assert.deepEqual(logged.filter((line) => line.includes('reconnecting in')).slice(0, 4), [
      `WARN relay: provider ${providerId}: event stream ended; reconnecting in 20 ms`,
      `WARN relay: provider ${providerId}: event stream http_500; reconnecting in 40 ms`,
      `WARN relay: provider ${providerId}: event stream http_500; reconnecting in 80 ms`,
      `WARN relay: provider ${providerId}: event stream http_500; reconnecting in 80 ms`,
    ]);
    assert.deepEqual(
      outbound.providers.get(providerId).listening && {
        state: outbound.providers.get(providerId).listening?.state,
        reason: outbound.providers.get(providerId).listening?.reason,
      },
      { state: 'retrying', reason: 'http_500' },
    );
    assert.equal(stand.connections[1]?.lastEventId, unreadable, 'resumed after the last event, read or not');
    stand.refuseEvents = undefined;
    await listening();
    const before = logged.filter((line) => line.includes('reconnecting in')).length;
    stand.endStreams();
    await within(
      5000,
      'the next reconnect',
      () => logged.filter((line) => line.includes('reconnecting in')).length > before,
    );
    assert.equal(
      logged.filter((line) => line.includes('reconnecting in'))[before],
      `WARN relay: provider ${providerId}: event stream ended; reconnecting in 20 ms`,
      'an open stream starts the back-off over',
    );
    assert.equal(service.get(id).answer?.action, 'allow');
  });

  for (const status of [401, 403]) {
    it(`stops asking a relay that refuses the credential with ${status}, and shows it refused`, async () => {
      stand.refuseEvents = status;
      const route = outbound.routes.create({ providerId });
      outbound.routes.setEnabled(route.id, true);
      await outbound.providers.update(providerId, { enabled: true });
      await within(
        5000,
        'refused shown',
        () => outbound.providers.get(providerId).listening?.state === 'refused',
      );
      assert.equal(outbound.providers.get(providerId).listening?.reason, `http_${status}`);
      assert.ok(
        logLine(
          `WARN relay: provider ${providerId}: the relay refuses the credential (HTTP ${status}, revoked?); no more answers until it is paired again`,
        ),
        logged.join('\n'),
      );
      await sleep(200);
      assert.equal(stand.connections.length, 1, 'no reconnect: the credential stays refused');
    });
  }

  it('keeps trying a relay that answers the stream with another error (404)', async () => {
    stand.refuseEvents = 404;
    await outbound.providers.update(providerId, { enabled: true });
    await within(5000, 'a reconnect', () => stand.connections.length >= 2);
    assert.equal(outbound.providers.get(providerId).listening?.reason, 'http_404');
    stand.refuseEvents = undefined;
    await listening();
  });

  it('shows a relay as connecting until its event stream opens', async () => {
    stand.holdStreams = true;
    await outbound.providers.update(providerId, { enabled: true });
    await within(5000, 'the stream asked for', () => stand.connections.length === 1);
    assert.equal(outbound.providers.get(providerId).listening?.state, 'connecting');
    stand.holdStreams = false;
  });

  it('says why it reconnects: a stream the relay ended, or one that sent more than a relay ever needs', async () => {
    await pair();
    const health = () => outbound.providers.get(providerId).listening;
    stand.holdStreams = true;
    stand.endStreams();
    await within(5000, 'the ended stream shown', () => health()?.reason === 'stream_ended');
    assert.equal(health()?.state, 'retrying');
    assert.ok(logLine('event stream ended; reconnecting in 20 ms'), logged.join('\n'));
    stand.holdStreams = false;
    stand.endStreams();
    await within(
      5000,
      'a new stream open',
      () => stand.openStreams() === 1 && health()?.state === 'listening',
    );
    stand.holdStreams = true;
    stand.send('answer', 'x'.repeat(70_000));
    await within(5000, 'the overrun shown', () => health()?.reason === 'stream_overrun');
    assert.ok(
      logLine(
        'event stream closed: the relay sent a line or event over 65536 characters; reconnecting in 20 ms',
      ),
      logged.join('\n'),
    );
    stand.holdStreams = false;
  });

  it('drops an answer to a notification the broker no longer keeps, with a warning', async () => {
    await pair();
    const id = await ask();
    await service.changeStatus(id, { status: 'resolved' });
    outbound.dispatcher.wake();
    await within(5000, 'the resolution delivered', () => !outbound.outboxStore.hasUnsettled(id, providerId));
    const store = new NotificationStore(db);
    await writes.run(() => store.pruneTerminalBefore(clock() + 60_000));
    answer(id, 1, 'allow', 1);
    await within(5000, 'the drop logged', () =>
      logLine(`answer for notification ${id} dropped: no such notification`),
    );
    assert.ok(
      logged.some((line) => line.startsWith('WARN') && line.includes('no such notification')),
      logged.join('\n'),
    );
  });

  it('closes the stream of a relay that is disabled, and opens a new one when it changes or comes back', async () => {
    await pair();
    assert.equal(stand.openStreams(), 1);
    await outbound.providers.update(providerId, { name: 'phone relay' });
    await within(5000, 'a new stream for the changed provider', () => stand.connections.length === 2);
    await within(5000, 'the old stream closed', () => stand.openStreams() === 1);
    await outbound.providers.update(providerId, { enabled: false });
    await within(5000, 'the stream closed', () => stand.openStreams() === 0);
    assert.equal(
      outbound.providers.get(providerId).listening,
      undefined,
      'a disabled relay is not listening',
    );
    await outbound.providers.update(providerId, { enabled: true });
    await listening();
    assert.equal(stand.openStreams(), 1);
  });

  it('closes its streams when the broker stops, and logs the dropped events it only counted', async () => {
    await pair();
    const id = await ask();
    for (let n = 0; n < 7; n++) answer(id, 9, 'allow', 1);
    await marker();
    assert.equal(logged.filter((line) => line.includes('(lifecycle 9) dropped')).length, 5);
    await outbound.stop();
    await within(5000, 'the stream closed', () => stand.openStreams() === 0);
    const asked = stand.connections.length;
    await outbound.providers.update(providerId, { name: 'changed while stopping' });
    await sleep(100);
    assert.equal(stand.connections.length, asked, 'a stopped broker opens no stream');
    assert.ok(
      logLine(
        'WARN relay: 2 more events from relays dropped in the last minute (the first 5 are logged above)',
      ),
      logged.join('\n'),
    );
  });

  /** The relay's log lines about one provider, with their level. */
  const linesOf = (id: string) => logged.filter((line) => line.includes(`relay: provider ${id}:`));

  it('shows a relay whose stored credential no longer opens as secrets_unreadable, asks the relay nothing and waits', async () => {
    const sealed = db
      .prepare<[string], { sealed: Buffer }>('SELECT sealed FROM provider_secrets WHERE provider_id = ?')
      .get(providerId)!.sealed;
    const altered = Buffer.from(sealed);
    altered.writeUInt8(altered.readUInt8(altered.length - 1) ^ 0xff, altered.length - 1);
    db.prepare('UPDATE provider_secrets SET sealed = ? WHERE provider_id = ?').run(altered, providerId);
    await outbound.providers.update(providerId, { enabled: true });
    await within(
      5000,
      'the unreadable credential shown',
      () => outbound.providers.get(providerId).listening?.reason === 'secrets_unreadable',
    );
    assert.equal(outbound.providers.get(providerId).listening?.state, 'retrying');
    await sleep(200);
    assert.deepEqual(linesOf(providerId), [
      `WARN relay: provider ${providerId}: the credential cannot be decrypted; answers wait for the keyring`,
    ]);
    assert.equal(stand.connections.length, 0, 'no stream without a credential it can read');
    db.prepare('UPDATE provider_secrets SET sealed = ? WHERE provider_id = ?').run(sealed, providerId);
    await outbound.providers.update(providerId, { name: 'relay again' });
    await listening();
    assert.equal(stand.connections[0]?.authorization, 'Bearer nrc_phone');
    assert.ok(
      logLine(`INFO relay: provider ${providerId}: event stream open, answers from the relay are applied`),
      logged.join('\n'),
    );
  });

  it('shows a relay whose credential is gone at the next start as refused, and never asks the relay', async () => {
    await pair();
    await outbound.stop();
    db.prepare('DELETE FROM provider_secrets WHERE provider_id = ?').run(providerId);
    const asked = stand.connections.length;
    logged.length = 0;
    outbound = build();
    outbound.start();
    outbound.followRelays(relayAnswerSink(service));
    await within(
      5000,
      'the missing credential shown',
      () => outbound.providers.get(providerId).listening?.state === 'refused',
    );
    assert.equal(outbound.providers.get(providerId).listening?.reason, 'credential_missing');
    await sleep(200);
    assert.deepEqual(linesOf(providerId), [
      `WARN relay: provider ${providerId}: has no credential; pair it again with notify relay pair`,
    ]);
    assert.equal(stand.connections.length, asked, 'the relay is not asked without a credential');
  });

  it('keeps applying the answers of one relay when following another fails on an error, and shows that error', async () => {
    const other = (
      await outbound.providers.create({
        kind: 'relay',
        settings: { url: stand.url, allowPrivate: true, credential: 'nrc_other' },
      })
    ).id;
    const route = outbound.routes.create({ providerId: other });
    outbound.routes.setEnabled(route.id, true);
    await outbound.providers.update(other, { enabled: true });
    await within(
      5000,
      'the other stream open',
      () => outbound.providers.get(other).listening?.state === 'listening',
    );
    db.exec('ALTER TABLE relay_cursors RENAME TO relay_cursors_away');
    await outbound.providers.update(providerId, { enabled: true });
    await within(
      5000,
      'the failure shown',
      () => outbound.providers.get(providerId).listening?.state === 'retrying',
    );
    assert.equal(
      stand.connections.filter((connection) => connection.authorization === 'Bearer nrc_other').length,
      1,
      'a change to one relay leaves the stream of another as it was',
    );
    assert.equal(outbound.providers.get(providerId).listening?.reason, 'error_SqliteError');
    assert.ok(
      logLine(`ERROR relay: answers of provider ${providerId} failed (SqliteError); trying again in`),
      logged.join('\n'),
    );
    assert.equal(outbound.providers.get(other).listening?.state, 'listening');
    const { record } = await service.create({
      title: 'Run the tests?',
      message: 'npm test',
      type: 'permission_required',
      priority: 'high',
      actions: [{ id: 'allow', label: 'Allow' }],
    });
    outbound.dispatcher.wake();
    await within(5000, 'delivered to the other relay', () =>
      outbound.outboxStore.deliveredReferences(record.id, other).includes('1'),
    );
    answer(record.id, 1, 'allow', 1);
    await within(5000, 'the answer applied', () => service.get(record.id).status === 'resolved');
    db.exec('ALTER TABLE relay_cursors_away RENAME TO relay_cursors');
    await within(
      5000,
      'the failed relay back by itself, once the database works again',
      () => outbound.providers.get(providerId).listening?.state === 'listening',
    );
  });

  it('spreads its reconnects by up to 20 % either way, so brokers do not all come back at once', async () => {
    await outbound.stop();
    outbound = build(() => 0.25);
    outbound.start();
    outbound.followRelays(relayAnswerSink(service));
    await pair();
    stand.refuseEvents = 500;
    stand.endStreams();
    await within(5000, 'two reconnects', () => stand.connections.length >= 3);
    assert.deepEqual(logged.filter((line) => line.includes('reconnecting in')).slice(0, 2), [
      `WARN relay: provider ${providerId}: event stream ended; reconnecting in 18 ms`,
      `WARN relay: provider ${providerId}: event stream http_500; reconnecting in 36 ms`,
    ]);
    stand.refuseEvents = undefined;
  });

  it('waits a second before its first reconnect unless told otherwise', async () => {
    await outbound.stop();
    outbound = build(() => 0.5, true);
    outbound.start();
    outbound.followRelays(relayAnswerSink(service));
    await pair();
    stand.holdStreams = true;
    stand.endStreams();
    await within(5000, 'the reconnect announced', () => logLine('reconnecting in'));
    assert.ok(
      logLine(`WARN relay: provider ${providerId}: event stream ended; reconnecting in 1000 ms`),
      logged.join('\n'),
    );
    stand.holdStreams = false;
  });

  it('applies an answer that met a database error after reconnecting, instead of losing it', async () => {
    await pair();
    const id = await ask();
    db.exec('ALTER TABLE notifications RENAME TO notifications_away');
    answer(id, 1, 'allow', 1);
    await within(
      5000,
      'the failure shown',
      () => outbound.providers.get(providerId).listening?.reason === 'error_sqliteerror',
      logged,
    );
    assert.ok(
      logLine(`WARN relay: provider ${providerId}: event stream error_sqliteerror; reconnecting in`),
      logged.join('\n'),
    );
    db.exec('ALTER TABLE notifications_away RENAME TO notifications');
    await within(5000, 'the answer applied after the reconnect', () => service.get(id).status === 'resolved');
    assert.equal(service.get(id).answer?.action, 'allow');
    assert.ok(!logLine('dropped'), logged.join('\n'));
  });

  it('never skips an answer that met a database error for an event read with it: the answer is applied after the reconnect', async () => {
    await pair();
    const id = await ask();
    db.exec('ALTER TABLE notifications RENAME TO notifications_away');
    // One read brings the answer and an event this broker does not know (a newer relay's), which needs
    // no database: its id must not become the cursor while the answer before it is not applied.
    stand.sendTogether([
      {
        type: 'answer',
        data: {
          notification_id: id,
          lifecycle: 1,
          action: 'allow',
          revision: 1,
          answered_at: new Date().toISOString(),
        },
      },
      { type: 'notice', data: { notification_id: id, lifecycle: 1, text: 'from a newer relay' } },
    ]);
    await within(
      5000,
      'the failure shown',
      () => outbound.providers.get(providerId).listening?.reason === 'error_sqliteerror',
      logged,
    );
    db.exec('ALTER TABLE notifications_away RENAME TO notifications');
    await within(
      5000,
      'the answer applied after the reconnect',
      () => service.get(id).status === 'resolved',
      logged,
    );
    assert.equal(service.get(id).answer?.action, 'allow');
  });

  it('follows relay providers only: an enabled ntfy provider shows no listening and is not asked for events', async () => {
    await pair();
    const other = await outbound.providers.create({
      kind: 'ntfy',
      settings: { serverUrl: stand.url, topic: 'laptop' },
    });
    await outbound.providers.update(other.id, { enabled: true });
    await sleep(100);
    assert.equal(outbound.providers.get(other.id).listening, undefined);
    assert.deepEqual(linesOf(other.id), []);
    assert.equal(stand.connections.length, 1, 'only the relay asks for events');
  });

  it('applies an event the relay sent without an id and keeps the stream open', async () => {
    await pair();
    const id = await ask();
    stand.sendUnnumbered('answer', {
      notification_id: id,
      lifecycle: 1,
      action: 'allow',
      revision: 1,
      answered_at: new Date().toISOString(),
    });
    await within(5000, 'the answer applied', () => service.get(id).status === 'resolved');
    await marker();
    assert.equal(stand.connections.length, 1, 'no reconnect');
    assert.ok(!logLine('reconnecting'), logged.join('\n'));
  });

  it('does not open the stream of a relay on this machine unless its provider allows private addresses', async () => {
    const guarded = (
      await outbound.providers.create({
        kind: 'relay',
        settings: { url: stand.url, credential: 'nrc_guarded' },
      })
    ).id;
    await outbound.providers.update(guarded, { enabled: true });
    await within(
      5000,
      'the refusal shown',
      () => outbound.providers.get(guarded).listening?.reason === 'address_not_allowed',
    );
    assert.equal(outbound.providers.get(guarded).listening?.state, 'retrying');
    assert.equal(stand.connections.length, 0);
  });
});

/**
 * A connection that went away without a word (a laptop's Wi-Fi changed, a NAT forgot it): the relay's
 * keep-alives stop arriving, and only the silence limit notices, so that the follower reconnects and the
 * phone's answers arrive again. The limit is set short here; notifyd's is 90 s.
 */
describe('a relay event stream that falls silent', () => {
  let stand: StandInRelay;
  beforeEach(async () => {
    stand = new StandInRelay();
    await stand.start();
  });
  afterEach(() => stand.close());

  it('ends as a time-out once nothing came for the silence limit, not while the relay keeps talking', async () => {
    const stop = new AbortController();
    let ended: Awaited<ReturnType<typeof followRelayEvents>> | undefined;
    const heard: string[] = [];
    void followRelayEvents({
      url: stand.url,
      allowPrivate: true,
      credential: 'nrc_silent',
      signal: stop.signal,
      onOpen: () => undefined,
      onEvent: async (event) => void heard.push(event.type ?? ''),
      silenceLimitMs: 400,
    }).then((end) => (ended = end));
    try {
      await within(5000, 'the stream open', () => stand.openStreams() === 1);
      // Something every 150 ms for a second: never silent for the limit, so the stream stays.
      for (let sent = 0; sent < 7; sent++) {
        stand.sendUnnumbered('keep', { sent });
        await sleep(150);
      }
      assert.equal(ended, undefined, 'ended while the relay was talking');
      assert.equal(heard.length, 7);
      await within(5000, 'the end of the silent stream', () => ended !== undefined);
      assert.deepEqual(ended, { kind: 'failed', reason: 'timeout' });
    } finally {
      stop.abort();
    }
  });
});
