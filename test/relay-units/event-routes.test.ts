/**
 * The relay's two live streams as a sender, a person and an attacker meet them: the installation's
 * event stream (GET /v1/events, resumed by Last-Event-ID) and the inbox's cookie stream
 * (GET /v1/inbox/stream), with their per-holder quotas. The relay's server runs in this process
 * (in-process-relay.ts), so Stryker measures src/relay-server/http/event-routes.ts and friends.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  api,
  deliver,
  delivered,
  OPERATOR,
  pairSender,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { waitFor, within } from '../support/wait-for.js';
import { join, signedIn } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

type Sender = { credential: string; installation: { id: string; name: string } };

let relay: InProcessRelay;
let web: WebSession;
let sender: Sender;
let readers: SseReader[] = [];
let made = 0;

before(async () => {
  relay = await startInProcessRelay({ deliveryRate: 100_000 });
  web = await setUpOperator(relay);
  sender = await pairSender(relay, web, 'events-box');
});
afterEach(() => {
  readers.forEach((reader) => reader.close());
  readers = [];
});
after(async () => relay.cleanup());

function eventStream(credential: string, headers: Record<string, string> = {}): SseReader {
  const reader = new SseReader(
    relay.port,
    { authorization: `Bearer ${credential}`, ...headers },
    '/v1/events',
  );
  readers.push(reader);
  return reader;
}

function inboxStream(browser: WebSession): SseReader {
  const reader = new SseReader(relay.port, { cookie: browser.cookieHeader() }, '/v1/inbox/stream');
  readers.push(reader);
  return reader;
}

/** The stream's status once its answer came. */
async function opened(reader: SseReader): Promise<number> {
  return waitFor(() => reader.status || undefined, 'the stream to answer');
}

/** An open stream that has sent its first line, so the relay listens for its changes from now on. */
async function listening(reader: SseReader): Promise<SseReader> {
  await reader.until((stream) => stream.text.startsWith('retry: 5000\n\n'));
  return reader;
}

function statusEvents(reader: SseReader): { id: number; notification_id: string; status: string }[] {
  return reader.events
    .filter((frame) => frame.event === 'status')
    .map((frame) => ({ id: Number(frame.id), ...JSON.parse(frame.data!) }));
}

function sentIds(reader: SseReader, prefix: string): string[] {
  return statusEvents(reader)
    .map((event) => event.notification_id)
    .filter((id) => id.startsWith(prefix));
}

async function inboxId(browser: WebSession, notificationId: string, installationId: string): Promise<string> {
  const listed = await browser.inbox('GET', '/v1/inbox/notifications');
  const items = listed.body['notifications'] as {
    id: string;
    inbox_id: string;
    installation: { id: string };
  }[];
  const item = items.find((one) => one.id === notificationId && one.installation.id === installationId);
  assert.ok(item, `${notificationId} is in the inbox`);
  return item.inbox_id;
}

/** One event on the installation's stream: a notification delivered, then dismissed in the inbox. */
async function statusEvent(owner: WebSession, of: Sender, notificationId: string): Promise<void> {
  assert.equal((await deliver(relay, of.credential, notificationId, delivered())).status, 201);
  const id = await inboxId(owner, notificationId, of.installation.id);
  const done = await owner.inbox('POST', `/v1/inbox/notifications/${id}/status`, {
    status: 'dismissed',
    lifecycle: 1,
  });
  assert.equal(done.status, 200, JSON.stringify(done.body));
}

/** A few events with names starting `prefix`, in order. */
async function events(owner: WebSession, of: Sender, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => `${prefix}${index}-${++made}`);
  for (const id of ids) await statusEvent(owner, of, id);
  return ids;
}

describe('the installation event stream', () => {
  it('answers as an event stream and replays every stored event, each with its id, in order', async () => {
    const box = await pairSender(relay, web, 'replay-box');
    const sent = await events(web, box, 'n-replay-', 3);
    const stream = eventStream(box.credential);
    await stream.until((reader) => sentIds(reader, 'n-replay-').length === 3);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(stream.headers['cache-control'], 'no-store');
    assert.equal(stream.headers['x-accel-buffering'], 'no');
    assert.equal(stream.headers['connection'], 'keep-alive', 'even to a client that asked to close');
    assert.equal(stream.headers['x-content-type-options'], 'nosniff');
    assert.ok(stream.text.startsWith('retry: 5000\n\n'), stream.text);
    assert.deepEqual(sentIds(stream, 'n-replay-'), sent);
    const ids = statusEvents(stream).map((event) => event.id);
    assert.ok(
      ids.every((id, index) => index === 0 || id > ids[index - 1]!),
      `ids increase: ${ids}`,
    );
    const first = statusEvents(stream)[0]!;
    const data = stream.events[0]!.data!;
    assert.ok(
      stream.text.includes(`\n\nid: ${first.id}\nevent: status\ndata: ${data}\n\n`),
      `the wire format of one event: ${stream.text}`,
    );
    assert.deepEqual(JSON.parse(data), {
      notification_id: sent[0],
      lifecycle: 1,
      status: 'dismissed',
      changed_at: JSON.parse(data).changed_at,
    });
  });

  it('resumes after Last-Event-ID: never that event again, every one after it, then the live ones', async () => {
    const box = await pairSender(relay, web, 'resume-box');
    // Ids of two digits and more: the header is read as a whole number, not its first digit.
    await events(web, box, 'n-early-', 12);
    const all = eventStream(box.credential);
    await all.until((reader) => sentIds(reader, 'n-early-').length === 12);
    const seen = statusEvents(all);
    const lastSeen = seen[10]!;
    assert.ok(lastSeen.id >= 10, `an id of two digits: ${lastSeen.id}`);
    all.close();

    const later = await events(web, box, 'n-later-', 2);
    const resumed = await listening(eventStream(box.credential, { 'last-event-id': String(lastSeen.id) }));
    await resumed.until((reader) => sentIds(reader, 'n-later-').length === 2);
    assert.deepEqual(
      statusEvents(resumed).map((event) => event.notification_id),
      [seen[11]!.notification_id, ...later],
      'only what came after the last event seen, each once',
    );
    const live = await events(web, box, 'n-live-', 2);
    await resumed.until((reader) => sentIds(reader, 'n-live-').length === 2);
    assert.deepEqual(
      statusEvents(resumed).map((event) => event.notification_id),
      [seen[11]!.notification_id, ...later, ...live],
    );

    const upToDate = await listening(
      eventStream(box.credential, { 'last-event-id': String(statusEvents(resumed).at(-1)!.id) }),
    );
    const next = await events(web, box, 'n-next-', 1);
    await upToDate.until((reader) => sentIds(reader, 'n-next-').length === 1);
    assert.deepEqual(
      statusEvents(upToDate).map((event) => event.notification_id),
      next,
    );
  });

  it('reads a Last-Event-ID that is not a plain event id as none: everything stored is sent again', async () => {
    const box = await pairSender(relay, web, 'odd-id-box');
    const sent = await events(web, box, 'n-odd-', 2);
    const first = eventStream(box.credential);
    await first.until((reader) => sentIds(reader, 'n-odd-').length === 2);
    const lastId = String(statusEvents(first).at(-1)!.id);
    for (const header of [`${lastId}x`, `x${lastId}`, `-${lastId}`, '1'.repeat(16), `${lastId}.5`]) {
      const again = eventStream(box.credential, { 'last-event-id': header });
      await again.until((reader) => sentIds(reader, 'n-odd-').length === 2);
      assert.deepEqual(sentIds(again, 'n-odd-'), sent, `Last-Event-ID ${header}`);
    }
  });

  it("never shows one installation's events to another's stream, nor to another person's", async () => {
    const mine = await pairSender(relay, web, 'mine-box');
    const neighbour = await pairSender(relay, web, 'neighbour-box');
    const bob = await join(relay, web, { username: 'bob', password: 'bob has a long password' });
    const bobs = await pairSender(relay, bob, 'bob-box');
    await events(web, mine, 'n-private-', 1);
    const neighbourStream = await listening(eventStream(neighbour.credential));
    const bobStream = await listening(eventStream(bobs.credential));
    await events(web, mine, 'n-private-', 1);
    await events(web, neighbour, 'n-neighbour-', 1);
    await events(bob, bobs, 'n-bob-', 1);
    await neighbourStream.until((reader) => sentIds(reader, 'n-neighbour-').length === 1);
    await bobStream.until((reader) => sentIds(reader, 'n-bob-').length === 1);
    assert.deepEqual(sentIds(neighbourStream, 'n-private-'), []);
    assert.deepEqual(sentIds(bobStream, 'n-private-'), []);
    assert.deepEqual(
      statusEvents(bobStream).map((event) => event.notification_id),
      sentIds(bobStream, 'n-bob-'),
    );
  });

  it('sends each event once when nudges from other relay processes come together', async () => {
    const box = await pairSender(relay, web, 'bus-box');
    const stream = await listening(eventStream(box.credential));
    const { hub } = relay.context;
    // As on a bus shared by several processes: the nudges arrive later, all at once.
    const held: Parameters<typeof hub.deliver>[0][] = [];
    hub.useBus((message) => held.push(message));
    let sent: string[];
    try {
      sent = await events(web, box, 'n-bus-', 3);
    } finally {
      hub.useBus((message) => hub.deliver(message));
    }
    held.forEach((message) => hub.deliver(message));
    await stream.until((reader) => sentIds(reader, 'n-bus-').length >= 3);
    const next = await events(web, box, 'n-bus-after-', 1);
    await stream.until((reader) => sentIds(reader, 'n-bus-after-').length === 1);
    assert.deepEqual(
      statusEvents(stream).map((event) => event.notification_id),
      [...sent, ...next],
    );
  });

  it('sends every event of a burst once and in order, however they come together', async () => {
    const box = await pairSender(relay, web, 'burst-box');
    const stream = await listening(eventStream(box.credential));
    const ids = Array.from({ length: 30 }, (_, index) => `n-burst-${index}`);
    for (const id of ids) assert.equal((await deliver(relay, box.credential, id, delivered())).status, 201);
    const inboxIds = await Promise.all(ids.map((id) => inboxId(web, id, box.installation.id)));
    await Promise.all(
      inboxIds.map((id) =>
        web.inbox('POST', `/v1/inbox/notifications/${id}/status`, { status: 'dismissed', lifecycle: 1 }),
      ),
    );
    await stream.until((reader) => sentIds(reader, 'n-burst-').length >= 30);
    const sent = statusEvents(stream);
    assert.deepEqual([...sentIds(stream, 'n-burst-')].sort(), [...ids].sort(), 'each once');
    assert.ok(
      sent.every((event, index) => index === 0 || event.id > sent[index - 1]!.id),
      `in order: ${sent.map((event) => event.id)}`,
    );
    const after = await events(web, box, 'n-after-burst-', 1);
    await stream.until((reader) => sentIds(reader, 'n-after-burst-').length === 1);
    assert.deepEqual(sentIds(stream, 'n-after-burst-'), after, 'the stream goes on after the burst');
  });

  it("ends the revoked installation's open stream and leaves the others' open", async () => {
    const doomed = await pairSender(relay, web, 'doomed-box');
    const kept = await pairSender(relay, web, 'kept-box');
    const doomedStream = await listening(eventStream(doomed.credential));
    const keptStream = await listening(eventStream(kept.credential));
    const revoked = await web.post(`/installations/${doomed.installation.id}/revoke`, { confirm: 'yes' });
    assert.equal(revoked.status, 200);
    await within(doomedStream.ended, 'the revoked installation stream to end');
    await events(web, kept, 'n-kept-', 1);
    await keptStream.until((reader) => sentIds(reader, 'n-kept-').length === 1);
    const refused = await api(relay, 'GET', '/v1/events', { bearer: doomed.credential });
    assert.equal(refused.status, 401);
  });

  it('refuses a wrong credential with 401 before it starts', async () => {
    const refused = await api(relay, 'GET', '/v1/events', { bearer: 'nrc_nope' });
    assert.equal(refused.status, 401);
    assert.equal(refused.body['error'], 'invalid_auth');
  });

  it('holds 8 streams per installation: the 9th is 429 with Retry-After 30, and a stream its client left frees its place', async () => {
    const busy = await pairSender(relay, web, 'busy-box');
    const other = await pairSender(relay, web, 'other-box');
    const openBefore = relay.context.streams.size;
    const streams = Array.from({ length: 8 }, () => eventStream(busy.credential));
    for (const stream of streams) assert.equal(await opened(stream), 200);
    const refused = eventStream(busy.credential);
    assert.equal(await opened(refused), 429);
    await within(refused.ended, 'the refused stream to end');
    assert.equal(refused.headers['retry-after'], '30');
    assert.deepEqual(JSON.parse(refused.text), {
      error: 'rate_limited',
      error_description:
        'This installation has 8 event streams open already; close one before opening another.',
    });
    assert.equal(await opened(eventStream(other.credential)), 200, 'another installation has its own places');

    streams.forEach((stream) => stream.close());
    await waitFor(
      () => relay.context.streams.size === openBefore + 1,
      'the relay to let go of the streams their clients left',
    );
    const again = Array.from({ length: 8 }, () => eventStream(busy.credential));
    for (const stream of again) assert.equal(await opened(stream), 200, 'every place is free again');
    const live = await events(web, busy, 'n-after-leave-', 1);
    for (const stream of again) {
      await stream.until((reader) => sentIds(reader, 'n-after-leave-').length === 1);
      assert.deepEqual(sentIds(stream, 'n-after-leave-'), live);
    }
  });

  it('keeps an idle stream alive with a comment, and stops doing so once it ended', async () => {
    const box = await pairSender(relay, web, 'idle-box');
    const keepAliveMs = relay.context.keepAliveMs;
    relay.context.keepAliveMs = 20;
    try {
      const stream = await listening(eventStream(box.credential));
      await stream.until(
        (reader) => reader.frames.filter((frame) => frame.comment === 'keep-alive').length >= 2,
      );
      assert.match(stream.text, /^retry: 5000\n\n(: keep-alive\n\n)+/);
      const revoked = await web.post(`/installations/${box.installation.id}/revoke`, { confirm: 'yes' });
      assert.equal(revoked.status, 200);
      await within(stream.ended, 'the stream to end');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: sender.credential })).status, 200);
    } finally {
      relay.context.keepAliveMs = keepAliveMs;
    }
  });
});

describe('the inbox stream', () => {
  it('refuses a browser without a session with 401', async () => {
    const refused = new SseReader(relay.port, {}, '/v1/inbox/stream');
    readers.push(refused);
    assert.equal(await opened(refused), 401);
    await within(refused.ended, 'the refused stream to end');
    assert.deepEqual(JSON.parse(refused.text), {
      error: 'invalid_auth',
      error_description: 'Sign in first.',
    });
  });

  it("shows a person each change of their own inbox live, and none of another person's", async () => {
    const carol = await join(relay, web, { username: 'carol', password: 'carol has a long password' });
    const carols = await pairSender(relay, carol, 'carol-box');
    const adaInbox = await listening(inboxStream(web));
    const carolInbox = await listening(inboxStream(carol));
    assert.equal(adaInbox.headers['content-type'], 'text/event-stream; charset=utf-8');
    await deliver(relay, carols.credential, 'n-carol-only', delivered({ title: 'For Carol' }));
    await deliver(relay, sender.credential, 'n-ada-only', delivered({ title: 'For Ada' }));
    await carolInbox.until((reader) => reader.events.some((frame) => frame.event === 'changed'));
    await adaInbox.until((reader) => reader.events.some((frame) => frame.event === 'changed'));
    const adaSaw = adaInbox.events.map((frame) => [frame.event, JSON.parse(frame.data!).id]);
    const carolSaw = carolInbox.events.map((frame) => [frame.event, JSON.parse(frame.data!).id]);
    assert.deepEqual(adaSaw, [['changed', 'n-ada-only']]);
    assert.deepEqual(carolSaw, [['changed', 'n-carol-only']]);
    const item = JSON.parse(adaInbox.events[0]!.data!);
    assert.equal(item.title, 'For Ada');
    assert.equal(item.installation.id, sender.installation.id);
    assert.ok(
      adaInbox.text.includes(`\n\nevent: changed\ndata: ${adaInbox.events[0]!.data}\n\n`),
      `an inbox change carries no id: ${adaInbox.text}`,
    );
  });

  it("tells the inbox an installation's notifications are gone when it is revoked", async () => {
    const box = await pairSender(relay, web, 'removed-box');
    await deliver(relay, box.credential, 'n-soon-gone', delivered());
    const inbox = await listening(inboxStream(web));
    assert.equal(
      (await web.post(`/installations/${box.installation.id}/revoke`, { confirm: 'yes' })).status,
      200,
    );
    await inbox.until((reader) => reader.events.some((frame) => frame.event === 'removed'));
    const removed = inbox.events.filter((frame) => frame.event === 'removed');
    assert.deepEqual(
      removed.map((frame) => JSON.parse(frame.data!)),
      [{ installation_id: box.installation.id }],
    );
    await deliver(relay, sender.credential, 'n-after-removal', delivered({ title: 'Still here' }));
    await inbox.until((reader) => /Still here/.test(reader.text));
  });

  it("ends the stream of a session revoked elsewhere at once; the person's other session goes on", async () => {
    const erin = { username: 'erin', password: 'erin has a long password' };
    const laptop = await join(relay, web, erin);
    const erins = await pairSender(relay, laptop, 'erin-box');
    const phone = await signedIn(relay, erin);
    const phoneInbox = await listening(inboxStream(phone));
    const laptopInbox = await listening(inboxStream(laptop));
    const page = await laptop.get('/people');
    const ids = [...page.text.matchAll(/action="\/people\/sessions\/(\d+)\/revoke"/g)].map(
      (match) => match[1],
    );
    assert.equal(ids.length, 1, 'the phone is the one other session');
    assert.equal((await laptop.post(`/people/sessions/${ids[0]}/revoke`, {})).status, 200);
    await within(phoneInbox.ended, 'the revoked session stream to end');
    assert.deepEqual(phoneInbox.events, []);
    await deliver(relay, erins.credential, 'n-laptop-still', delivered({ title: 'Laptop still' }));
    await laptopInbox.until((reader) => /Laptop still/.test(reader.text));
    assert.equal(await opened(inboxStream(laptop)), 200);
  });

  it('ends the stream of a session signed out before the next change, without showing it', async () => {
    const tab = await signedIn(relay, OPERATOR);
    const inbox = await listening(inboxStream(tab));
    assert.equal((await tab.post('/sign-out', {})).status, 303);
    await deliver(relay, sender.credential, 'n-after-sign-out', delivered({ title: 'After sign-out' }));
    await within(inbox.ended, 'the signed-out session stream to end');
    assert.doesNotMatch(inbox.text, /After sign-out/);
  });

  it('holds 8 inboxes per session: the 9th is 429 with Retry-After 30; another session has its own, a closed tab frees its place', async () => {
    const tab = await signedIn(relay, OPERATOR);
    const streams = Array.from({ length: 8 }, () => inboxStream(tab));
    for (const stream of streams) assert.equal(await opened(stream), 200);
    const refused = inboxStream(tab);
    assert.equal(await opened(refused), 429);
    await within(refused.ended, 'the refused stream to end');
    assert.equal(refused.headers['retry-after'], '30');
    assert.deepEqual(JSON.parse(refused.text), {
      error: 'rate_limited',
      error_description:
        'This session has 8 inboxes open already; close a tab or window before opening another.',
    });
    assert.equal(await opened(inboxStream(web)), 200, 'another session of the same person has its own');
    streams.pop()!.close();
    await waitFor(async () => {
      const again = inboxStream(tab);
      const status = await opened(again);
      if (status !== 200) again.close();
      return status === 200;
    }, 'a place for a new inbox of the session');
  });
});

describe('a relay stopping', () => {
  it('tells each open stream to come back in a second, then ends it', async () => {
    const stopping = await startInProcessRelay();
    try {
      const operator = await setUpOperator(stopping);
      const box = await pairSender(stopping, operator, 'stopping-box');
      const events = new SseReader(
        stopping.port,
        { authorization: `Bearer ${box.credential}` },
        '/v1/events',
      );
      const inbox = new SseReader(stopping.port, { cookie: operator.cookieHeader() }, '/v1/inbox/stream');
      readers.push(events, inbox);
      for (const stream of [events, inbox]) await listening(stream);
      await stopping.stop();
      for (const stream of [events, inbox]) {
        await within(stream.ended, 'the stream to end');
        assert.equal(stream.text, 'retry: 5000\n\nretry: 1000\n\n');
      }
    } finally {
      await stopping.cleanup();
    }
  });
});
