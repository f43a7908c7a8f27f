/**
 * The relay's core rules as a sender, a person and their open streams see them: what pairing hands out
 * and when it stops, what a delivery, a status change or an answer changes, and which live events say
 * so (only for what changed). The relay's server runs in this process (in-process-relay.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  createPairing,
  decide,
  deliver,
  delivered,
  pairSender,
  pollOnTime,
  setUpOperator,
  WebSession,
} from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { join } from './accounts.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const MINUTE = 60_000;

interface Item {
  inbox_id: string;
  id: string;
  lifecycle: number;
  revision: number;
  title: string;
  status: string;
  installation: { id: string; name: string };
  answer?: { action: string; answered_at: string };
  received_at: string;
}

let relay: InProcessRelay;
let web: WebSession;
let sender: { credential: string; installation: { id: string; name: string } };
let count = 0;

before(async () => {
  relay = await startInProcessRelay();
  web = await setUpOperator(relay);
  sender = await pairSender(relay, web, 'core-box');
});
after(async () => relay.cleanup());

const nextId = (): string => `n-core-${++count}`;

async function listed(browser: WebSession, id: string): Promise<Item | undefined> {
  const list = await browser.inbox('GET', '/v1/inbox/notifications');
  return (list.body['notifications'] as Item[]).find((candidate) => candidate.id === id);
}

async function shown(id: string): Promise<Item> {
  const item = await listed(web, id);
  assert.ok(item, `${id} is in the inbox`);
  return item;
}

/** The operator's inbox open in a browser tab, its stream started. */
async function openInbox(browser = web): Promise<SseReader> {
  const stream = new SseReader(relay.port, { cookie: browser.cookieHeader() }, '/v1/inbox/stream');
  await stream.until((reader) => reader.text.startsWith('retry:'));
  return stream;
}

/** The sender's event stream (GET /v1/events), started. */
async function openEvents(credential = sender.credential): Promise<SseReader> {
  const stream = new SseReader(relay.port, { authorization: `Bearer ${credential}` }, '/v1/events');
  await stream.until((reader) => reader.text.startsWith('retry:'));
  return stream;
}

function frames(stream: SseReader, type: string): Record<string, unknown>[] {
  return stream.events
    .filter((frame) => frame.event === type)
    .map((frame) => JSON.parse(frame.data!) as Record<string, unknown>);
}

function changesOf(stream: SseReader, id: string): Item[] {
  return frames(stream, 'changed').filter((item) => item['id'] === id) as unknown as Item[];
}

function eventsOf(stream: SseReader, type: string, id: string): Record<string, unknown>[] {
  return frames(stream, type).filter((event) => event['notification_id'] === id);
}

/**
 * A delivery the open inbox shows after everything before it: once it arrives, whatever an earlier
 * step would have sent has arrived too (one stream, in order).
 */
async function marker(stream: SseReader): Promise<void> {
  const id = nextId();
  assert.equal((await deliver(relay, sender.credential, id, delivered())).status, 201);
  await stream.until(() => changesOf(stream, id).length > 0);
}

function senderStatus(id: string, status: string, credential = sender.credential) {
  return api(relay, 'POST', `/v1/notifications/${id}/status`, { bearer: credential, body: { status } });
}

describe('relay core: pairing', () => {
  it('hands the approved sender its credential once, for an installation named as it asked, owned by who approved it', async () => {
    const olga = await join(relay, web, { username: 'olga', password: 'olga has a long password' });
    const pairing = await createPairing(relay, 'olga-laptop');
    await decide(olga, pairing, 'approve');
    const collected = await pollOnTime(relay, pairing);
    assert.equal(collected.status, 200);
    assert.equal(collected.body['status'], 'approved');
    const credential = String(collected.body['credential']);
    assert.match(credential, /^nrc_/);
    assert.equal((collected.body['installation'] as { name: string }).name, 'olga-laptop');
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'consumed' });

    const who = await api(relay, 'GET', '/v1/installation', { bearer: credential });
    assert.equal(who.status, 200, JSON.stringify(who.body));
    assert.equal(who.body['name'], 'olga-laptop');
    assert.equal(who.body['id'], (collected.body['installation'] as { id: string }).id);
    assert.equal(who.body['owner'], 'olga');
    assert.match((await olga.get('/installations')).text, /olga-laptop/);
    assert.doesNotMatch((await web.get('/installations')).text, /olga-laptop/);
  });

  it('opens a pairing with an id and a poll secret of the documented forms', async () => {
    const pairing = await createPairing(relay, 'formal-box');
    assert.match(pairing.pairing_id, /^p_[A-Za-z0-9_-]{16,}$/);
    assert.match(pairing.poll_secret, /^nrp_[A-Za-z0-9_-]{43}$/);
  });

  it('tells a rejected sender so and gives it nothing', async () => {
    const pairing = await createPairing(relay, 'rejected-box');
    await decide(web, pairing, 'reject');
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'rejected' });
    assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'rejected' });
    assert.doesNotMatch((await web.get('/installations')).text, /rejected-box/);
  });

  it('never approves or rejects a request past its 10 minutes; the sender hears it expired', async () => {
    for (const decision of ['approve', 'reject']) {
      const pairing = await createPairing(relay, `late-${decision}`);
      assert.equal((await web.get(`/pair?code=${pairing.user_code}`)).status, 200);
      relay.advance(pairing.expires_in * 1000);
      const late = await web.post('/pair', { pairing_id: pairing.pairing_id, decision });
      assert.equal(late.status, 409, late.text);
      assert.deepEqual((await pollOnTime(relay, pairing)).body, { status: 'expired' });
    }
    assert.doesNotMatch((await web.get('/installations')).text, /late-approve/);
  });

  it('approves a request in its last seconds', async () => {
    const pairing = await createPairing(relay, 'just-in-time');
    assert.equal((await web.get(`/pair?code=${pairing.user_code}`)).status, 200);
    relay.advance(pairing.expires_in * 1000 - 2000);
    const approved = await web.post('/pair', { pairing_id: pairing.pairing_id, decision: 'approve' });
    assert.equal(approved.status, 200, approved.text);
  });

  it('remembers the longer interval a too fast sender was told, and forgets an ended request after an hour', async () => {
    const pairing = await createPairing(relay, 'hasty-box');
    const path = `/v1/pairings/${pairing.pairing_id}/poll`;
    const poll = () => api(relay, 'POST', path, { bearer: pairing.poll_secret });
    relay.advance(1000);
    assert.deepEqual((await poll()).body, { status: 'slow_down', interval: 10 });
    relay.advance(6000);
    assert.deepEqual(
      (await poll()).body,
      { status: 'slow_down', interval: 15 },
      'the 10 seconds it was told count',
    );
    relay.advance(16_000);
    assert.deepEqual((await poll()).body, { status: 'pending' });

    relay.advance(10 * MINUTE + 59 * MINUTE);
    assert.deepEqual((await poll()).body, { status: 'expired' });
    relay.advance(MINUTE);
    const forgotten = await poll();
    assert.equal(forgotten.status, 401, JSON.stringify(forgotten.body));
  });

  it('refuses a poll with the secret of another pairing', async () => {
    const one = await createPairing(relay, 'one-box');
    const other = await createPairing(relay, 'other-box');
    relay.advance(6000);
    const crossed = await api(relay, 'POST', `/v1/pairings/${one.pairing_id}/poll`, {
      bearer: other.poll_secret,
    });
    assert.equal(crossed.status, 401);
  });
});

describe('relay core: delivery and the open inbox', () => {
  it('shows each stored change live, and nothing for a replay or an older update', async () => {
    const stream = await openInbox();
    try {
      const id = nextId();
      const first = await deliver(relay, sender.credential, id, delivered(), `key-${id}`);
      assert.equal(first.status, 201);
      const replay = await deliver(relay, sender.credential, id, delivered(), `key-${id}`);
      assert.deepEqual([replay.status, replay.body], [201, first.body]);
      const older = await deliver(
        relay,
        sender.credential,
        id,
        delivered({ title: 'Older', updated_at: '2026-11-25T17:00:00.000Z' }),
      );
      assert.deepEqual([older.status, older.body], [200, { id, lifecycle: 1, status: 'active' }]);
      assert.equal((await shown(id)).title, 'Run this?', 'the older update changed nothing');
      const newer = await deliver(
        relay,
        sender.credential,
        id,
        delivered({ title: 'Newer', updated_at: '2026-11-25T17:45:00.000Z' }),
      );
      assert.deepEqual([newer.status, newer.body], [200, { id, lifecycle: 1, status: 'active' }]);
      await marker(stream);
      const changes = changesOf(stream, id);
      assert.deepEqual(
        changes.map((item) => [item.title, item.lifecycle, item.revision, item.status]),
        [
          ['Run this?', 1, 1, 'active'],
          ['Newer', 1, 2, 'active'],
        ],
      );
      assert.deepEqual(changes[0]!.installation, { id: sender.installation.id, name: 'core-box' });
      assert.equal((await shown(id)).title, 'Newer');
    } finally {
      stream.close();
    }
  });

  it('a notification first delivered as ended is stored and shown ended', async () => {
    const stream = await openInbox();
    try {
      const id = nextId();
      const created = await deliver(relay, sender.credential, id, delivered({ status: 'resolved' }));
      assert.deepEqual([created.status, created.body], [201, { id, lifecycle: 1, status: 'resolved' }]);
      await marker(stream);
      assert.deepEqual(
        changesOf(stream, id).map((item) => item.status),
        ['resolved'],
      );
    } finally {
      stream.close();
    }
  });

  it('reopening an ended request starts a new lifecycle, received now, without the old answer', async () => {
    const id = nextId();
    await deliver(relay, sender.credential, id, delivered());
    const first = await shown(id);
    const answered = await web.inbox('POST', `/v1/inbox/notifications/${first.inbox_id}/answer`, {
      action: 'allow',
      lifecycle: 1,
      revision: 1,
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    relay.advance(MINUTE);
    const reopened = await deliver(
      relay,
      sender.credential,
      id,
      delivered({ updated_at: '2026-11-25T17:50:00.000Z' }),
    );
    assert.deepEqual([reopened.status, reopened.body], [201, { id, lifecycle: 2, status: 'active' }]);
    const again = await shown(id);
    assert.deepEqual([again.lifecycle, again.status, again.answer], [2, 'active', undefined]);
    assert.ok(Date.parse(again.received_at) >= Date.parse(first.received_at) + MINUTE, again.received_at);
    const second = await web.inbox('POST', `/v1/inbox/notifications/${first.inbox_id}/answer`, {
      action: 'deny',
      lifecycle: 2,
      revision: again.revision,
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
  });

  it("keeps the person's answer and the time it came when the sender reports the request ended", async () => {
    const id = nextId();
    await deliver(relay, sender.credential, id, delivered());
    const item = await shown(id);
    await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
      action: 'deny',
      lifecycle: 1,
      revision: 1,
    });
    const answered = await shown(id);
    relay.advance(MINUTE);
    const reported = await deliver(
      relay,
      sender.credential,
      id,
      delivered({ status: 'resolved', title: 'Denied', updated_at: '2026-11-25T17:50:00.000Z' }),
    );
    assert.deepEqual([reported.status, reported.body], [200, { id, lifecycle: 1, status: 'resolved' }]);
    const now = await shown(id);
    assert.equal(now.title, 'Denied');
    assert.deepEqual(now.answer, answered.answer);
    assert.equal(now.received_at, answered.received_at);
  });
});

describe('relay core: status changes', () => {
  it('a sender ends its notification once: the inbox shows it ended, ending it again changes nothing', async () => {
    const stream = await openInbox();
    const events = await openEvents();
    try {
      const id = nextId();
      await deliver(relay, sender.credential, id, delivered());
      const resolved = await senderStatus(id, 'resolved');
      assert.deepEqual([resolved.status, resolved.body], [200, { id, lifecycle: 1, status: 'resolved' }]);
      const again = await senderStatus(id, 'dismissed');
      assert.deepEqual([again.status, again.body], [200, { id, lifecycle: 1, status: 'resolved' }]);
      await marker(stream);
      assert.deepEqual(
        changesOf(stream, id).map((item) => item.status),
        ['active', 'resolved'],
      );
      assert.equal((await shown(id)).status, 'resolved');
      assert.deepEqual(eventsOf(events, 'status', id), [], 'the sender is not told of its own change');
    } finally {
      stream.close();
      events.close();
    }
  });

  it("a sender cannot end another installation's notification with the same id", async () => {
    const id = nextId();
    await deliver(relay, sender.credential, id, delivered());
    const other = await pairSender(relay, web, 'other-core-box');
    const foreign = await senderStatus(id, 'dismissed', other.credential);
    assert.equal(foreign.status, 404);
    assert.equal((await shown(id)).status, 'active');
  });

  it('a dismissal on the page tells the sender once; dismissing again or an old lifecycle tells it nothing', async () => {
    const stream = await openInbox();
    const events = await openEvents();
    try {
      const id = nextId();
      await deliver(relay, sender.credential, id, delivered());
      const item = await shown(id);
      const path = `/v1/inbox/notifications/${item.inbox_id}/status`;
      const dismissed = await web.inbox('POST', path, { status: 'dismissed', lifecycle: 1 });
      assert.equal(dismissed.status, 200, JSON.stringify(dismissed.body));
      assert.deepEqual([dismissed.body['status'], dismissed.body['lifecycle']], ['dismissed', 1]);
      assert.deepEqual(dismissed.body['installation'], { id: sender.installation.id, name: 'core-box' });
      await events.until(() => eventsOf(events, 'status', id).length > 0);
      const [event] = eventsOf(events, 'status', id);
      assert.deepEqual(
        { ...event, changed_at: undefined },
        { notification_id: id, lifecycle: 1, status: 'dismissed', changed_at: undefined },
      );
      assert.equal(event!['changed_at'], new Date(Date.parse(String(event!['changed_at']))).toISOString());

      const twice = await web.inbox('POST', path, { status: 'resolved', lifecycle: 1 });
      assert.deepEqual([twice.status, twice.body['status']], [200, 'dismissed']);
      const old = await web.inbox('POST', path, { status: 'resolved', lifecycle: 2 });
      assert.equal(old.status, 409);
      const answer = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
        action: 'allow',
        lifecycle: 1,
        revision: 1,
      });
      assert.equal(answer.status, 409, 'no answer after a dismissal');

      // A later answer on the same stream: everything before it has arrived.
      const next = nextId();
      await deliver(relay, sender.credential, next, delivered());
      const nextItem = await shown(next);
      await web.inbox('POST', `/v1/inbox/notifications/${nextItem.inbox_id}/answer`, {
        action: 'allow',
        lifecycle: 1,
        revision: 1,
      });
      await events.until(() => eventsOf(events, 'answer', next).length > 0);
      assert.equal(eventsOf(events, 'status', id).length, 1);
      assert.deepEqual(eventsOf(events, 'answer', id), []);
      await marker(stream);
      assert.deepEqual(
        changesOf(stream, id).map((change) => change.status),
        ['active', 'dismissed', 'dismissed'],
      );
    } finally {
      stream.close();
      events.close();
    }
  });

  it("never changes another person's notification", async () => {
    const id = nextId();
    await deliver(relay, sender.credential, id, delivered());
    const item = await shown(id);
    const bea = await join(relay, web, { username: 'bea', password: 'bea has a long password too' });
    const path = `/v1/inbox/notifications/${item.inbox_id}`;
    assert.equal(
      (await bea.inbox('POST', `${path}/status`, { status: 'dismissed', lifecycle: 1 })).status,
      404,
    );
    assert.equal(
      (await bea.inbox('POST', `${path}/answer`, { action: 'allow', lifecycle: 1, revision: 1 })).status,
      404,
    );
    assert.deepEqual([(await shown(id)).status, (await shown(id)).answer], ['active', undefined]);
  });
});

describe('relay core: answers', () => {
  it("an answer reaches the sender once with the sender's revision, and the open inbox shows it answered", async () => {
    const stream = await openInbox();
    const events = await openEvents();
    try {
      const id = nextId();
      await deliver(relay, sender.credential, id, delivered({ revision: 7 }));
      const item = await shown(id);
      const answered = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
        action: 'deny',
        lifecycle: 1,
        revision: item.revision,
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(answered.body['status'], 'resolved');
      assert.deepEqual(answered.body['installation'], { id: sender.installation.id, name: 'core-box' });
      await events.until(() => eventsOf(events, 'answer', id).length > 0);
      const [event] = eventsOf(events, 'answer', id);
      const answeredAt = (answered.body['answer'] as { answered_at: string }).answered_at;
      assert.deepEqual(event, {
        notification_id: id,
        lifecycle: 1,
        revision: 7,
        action: 'deny',
        answered_at: answeredAt,
      });
      await marker(stream);
      const last = changesOf(stream, id).at(-1)!;
      assert.deepEqual([last.status, last.answer?.action], ['resolved', 'deny']);
      assert.deepEqual((await shown(id)).answer, { action: 'deny', answered_at: answeredAt });
    } finally {
      stream.close();
      events.close();
    }
  });

  it('an answer to a notification its sender gave no revision names none', async () => {
    const events = await openEvents();
    try {
      const id = nextId();
      const body = delivered();
      delete body['revision'];
      await deliver(relay, sender.credential, id, body);
      const item = await shown(id);
      await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/answer`, {
        action: 'allow',
        lifecycle: 1,
        revision: item.revision,
      });
      await events.until(() => eventsOf(events, 'answer', id).length > 0);
      assert.equal('revision' in eventsOf(events, 'answer', id)[0]!, false);
    } finally {
      events.close();
    }
  });
});

describe('relay core: installations', () => {
  it('revoking a sender removes its notifications from the open inbox', async () => {
    const doomed = await pairSender(relay, web, 'doomed-box');
    const stream = await openInbox();
    try {
      const id = nextId();
      await deliver(relay, doomed.credential, id, delivered());
      await stream.until(() => changesOf(stream, id).length > 0);
      const revoked = await web.post(`/installations/${doomed.installation.id}/revoke`, { confirm: 'yes' });
      assert.equal(revoked.status, 200);
      await stream.until(() => frames(stream, 'removed').length > 0);
      assert.deepEqual(frames(stream, 'removed'), [{ installation_id: doomed.installation.id }]);
      assert.equal(await listed(web, id), undefined);
      assert.equal((await api(relay, 'GET', '/v1/installation', { bearer: doomed.credential })).status, 401);
    } finally {
      stream.close();
    }
  });
});

// Last: it moves the relay's clock by a day, past the browser session's idle time.
describe('relay core: answer links', () => {
  it('gives a link while a push could still answer the request, and refuses one after its day', async () => {
    const id = nextId();
    await deliver(relay, sender.credential, id, delivered({ revision: 1 }));
    const linkOf = () =>
      api(relay, 'POST', `/v1/notifications/${id}/answer-link`, {
        bearer: sender.credential,
        body: { revision: 1 },
      });
    relay.advance(24 * 60 * MINUTE - MINUTE);
    assert.equal((await linkOf()).status, 200);
    relay.advance(2 * MINUTE);
    const late = await linkOf();
    assert.equal(late.status, 409, JSON.stringify(late.body));
    assert.equal(late.body['error'], 'conflict');
  });
});
