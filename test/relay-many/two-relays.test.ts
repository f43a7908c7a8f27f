/**
 * Two notify-relay processes on one PostgreSQL database behind a round-robin proxy (docs/relay.md
 * "Many people"): what one process does, the other knows, and live streams follow a process's death.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
import {
  api,
  createPairing,
  decide,
  deliver,
  delivered,
  pollOnTime,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor, within } from '../support/wait-for.js';
import { PushService } from '../support/push-service.js';
import { addDevice } from '../relay/push-support.js';

let postgres: TestPostgres;
let database: string;
let a: RelayProcess;
let b: RelayProcess;
let proxy: RoundRobinProxy;
/** The relay as its users see it: the proxy's address, both processes' clocks moved together. */
let front: RelayProcess;
let phone: WebSession;
let service: PushService;

/** Each process signs its phone pushes with its own contact: the push service sees which one sent. */
const startOn = (url: string, name: string): Promise<RelayProcess> =>
  startRelay({
    env: { NOTIFY_RELAY_DATABASE: url },
    args: ['--processes', '2', '--allow-loopback-push', '--contact', contactOf(name)],
  });
const contactOf = (name: string): string => `mailto:relay-${name}@example.org`;

before(async () => {
  postgres = await startPostgres();
  database = postgres.createDatabase();
  service = await PushService.start();
  [a, b] = await Promise.all([startOn(database, 'a'), startOn(database, 'b')]);
  proxy = await startRoundRobinProxy([a.port, b.port]);
  front = {
    ...a,
    url: proxy.url,
    port: proxy.port,
    advance(ms: number) {
      a.advance(ms);
      b.advance(ms);
    },
  };
  // The one-time setup link is the printing process's own: the operator is set up there.
  const setup = await setUpOperator(a.setupUrl ? a : b);
  phone = new WebSession(front);
  for (const [name, value] of setup.cookies) phone.cookies.set(name, value);
  phone.csrf = setup.csrf;
});
after(async () => {
  await proxy?.close();
  await Promise.all([a?.cleanup(), b?.cleanup()]);
  await service?.stop();
  postgres?.stop();
});

/**
 * One process addressed alone, its clock moved with the other's: the two share one machine's time.
 * Moving one process's clock alone put it ahead of the other, and a push claimed there stayed its own
 * past the other's idea of the claim's end (the kill test below failed when process A held the push).
 */
function sharingTime(relay: RelayProcess): RelayProcess {
  return { ...relay, advance: (ms: number) => front.advance(ms) };
}

/** The laptop's event stream through the proxy, on the given process (the proxy takes turns). */
async function streamOn(relay: RelayProcess, credential: string): Promise<SseReader> {
  for (;;) {
    const reader = new SseReader(proxy.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    await reader.until((stream) => stream.text.startsWith('retry:'));
    if (proxy.routed.at(-1) === relay.port) return reader;
    reader.close();
  }
}

async function answer(through: RelayProcess, notificationId: string): Promise<void> {
  const web = new WebSession(through);
  for (const [name, value] of phone.cookies) web.cookies.set(name, value);
  web.csrf = phone.csrf;
  const listed = await web.inbox('GET', '/v1/inbox/notifications');
  const item = (listed.body['notifications'] as Record<string, unknown>[]).find(
    (entry) => entry['id'] === notificationId,
  );
  assert.ok(item, `${notificationId} in the inbox`);
  const answered = await web.inbox('POST', `/v1/inbox/notifications/${item['inbox_id']}/answer`, {
    action: 'allow',
    lifecycle: item['lifecycle'],
    revision: item['revision'],
  });
  assert.equal(answered.status, 200, JSON.stringify(answered.body));
}

function answersIn(reader: SseReader): string[] {
  return reader.events
    .filter((frame) => frame.event === 'answer')
    .map((frame) => (JSON.parse(frame.data!) as { notification_id: string }).notification_id);
}

describe('two relay processes on one PostgreSQL database', () => {
  it('answers /healthz and /readyz on both; the schema is migrated once', async () => {
    for (const relay of [a, b]) {
      assert.equal((await api(relay, 'GET', '/healthz')).status, 200);
      const ready = await api(relay, 'GET', '/readyz');
      assert.deepEqual([ready.status, ready.body], [200, { status: 'ready' }]);
    }
  });

  it('a pairing started on one process is approved on the other and collected through the proxy', async () => {
    const pairing = await createPairing(sharingTime(a), 'ada-laptop');
    const onB = new WebSession(b);
    for (const [name, value] of phone.cookies) onB.cookies.set(name, value);
    await onB.get('/inbox');
    await decide(onB, pairing, 'approve');
    const polled = await pollOnTime(front, pairing);
    assert.equal(polled.body['status'], 'approved', JSON.stringify(polled.body));
  });

  it("an answer given in the inbox on B reaches the laptop's event stream on A, and the phone's inbox stream on A hears of it", async () => {
    const { credential } = await pairedLaptop('laptop-2');
    const laptop = new SseReader(a.port, { authorization: `Bearer ${credential}` }, '/v1/events');
    const inbox = new SseReader(a.port, { cookie: phone.cookieHeader() }, '/v1/inbox/stream');
    try {
      await laptop.until((reader) => reader.text.startsWith('retry:'));
      await inbox.until((reader) => reader.text.startsWith('retry:'));
      assert.equal((await deliver(b, credential, 'n-cross', delivered())).status, 201);
      await inbox.until((reader) => reader.events.some((frame) => frame.data?.includes('"n-cross"')));
      await answer(b, 'n-cross');
      await laptop.until((reader) => answersIn(reader).includes('n-cross'));
      assert.deepEqual(answersIn(laptop), ['n-cross']);
    } finally {
      laptop.close();
      inbox.close();
    }
  });

  it('the pairing limit (10 a minute per address) holds across both: each process counts its half', async () => {
    front.advance(61_000);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const created = await api(front, 'POST', '/v1/pairings', {
        body: { sender_name: `laptop-${attempt}` },
      });
      statuses.push(created.status);
    }
    assert.deepEqual(statuses, [...Array<number>(10).fill(201), 429, 429]);
  });

  it('kill -9 of a process sending a push and holding a laptop stream: the other sends the push once the claim lapses, and the laptop resumes there with every answer exactly once', async () => {
    const { credential } = await pairedLaptop('laptop-3');
    const { subscription } = await addDevice(phone, service, 'Phone');
    // The push service takes the first push in and never answers: its sender dies with it in flight.
    const held = service.holdNext();
    assert.equal((await deliver(front, credential, 'n-push', delivered())).status, 201);
    const claimed = await within(held, 'the push of n-push at the push service');
    assert.equal(claimed.payload['id'], 'n-push');
    const holder = claimed.sender === contactOf('a') ? a : b;
    const survivor = holder === a ? b : a;
    const ids = Array.from({ length: 6 }, (_, index) => `n-kill-${index}`);
    for (const id of ids) assert.equal((await deliver(front, credential, id, delivered())).status, 201);
    const first = await streamOn(holder, credential);
    for (const id of ids.slice(0, 3)) await answer(survivor, id);
    await first.until((reader) => answersIn(reader).length === 3);
    process.kill(holder.pid!, 'SIGKILL');
    await first.ended;
    // Answered while the laptop is away; then it comes back with the last id it saw.
    for (const id of ids.slice(3)) await answer(survivor, id);
    const lastId = first.events.at(-1)!.id!;
    const second = new SseReader(
      proxy.port,
      {
        authorization: `Bearer ${credential}`,
        'last-event-id': lastId,
      },
      '/v1/events',
    );
    try {
      await second.until((reader) => answersIn(reader).length === 3);
      assert.deepEqual([...answersIn(first), ...answersIn(second)], ids);
      assert.equal(proxy.routed.at(-1), survivor.port);
      // The dead process's claim on the push lapses (30 s on the relay's clock): the survivor sends it.
      front.advance(31_000);
      const sent = await waitFor(
        () => {
          const pushes = service.deliveredTo(subscription).filter((push) => push.payload['id'] === 'n-push');
          return pushes.length > 0 && pushes;
        },
        'n-push sent again by the surviving process',
        15_000,
      );
      assert.deepEqual(
        sent.map((push) => push.sender),
        [contactOf(survivor === a ? 'a' : 'b')],
      );
    } finally {
      first.close();
      second.close();
    }
  });
});

/** A new laptop's credential, paired through the proxy. */
async function pairedLaptop(name: string): Promise<{ credential: string }> {
  const pairing = await createPairing(front, name);
  await decide(phone, pairing, 'approve');
  const polled = await pollOnTime(front, pairing);
  assert.equal(polled.body['status'], 'approved', JSON.stringify(polled.body));
  return polled.body as unknown as { credential: string };
}
