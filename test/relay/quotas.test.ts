/** What one installation or one browser session may take of the relay: event streams, stored rows, the inbox's top. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRelay, type RelayProcess } from '../support/relay-process.js';
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

let relay: RelayProcess;
let web: WebSession;

before(async () => {
  relay = await startRelay({ args: ['--delivery-rate', '100000'] });
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** A stream's answer status once its headers came. */
async function opened(reader: SseReader): Promise<number> {
  return waitFor(() => reader.status || undefined, 'the stream to answer');
}

async function inBatches(count: number, work: (index: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, (_, offset) => work(start + offset)),
    );
  }
}

describe('event streams', () => {
  it('one installation holds at most 8 event streams; the 9th is 429 with the reason, and a closed one frees its place', async () => {
    const sender = await pairSender(relay, web, 'many-streams');
    const other = await pairSender(relay, web, 'other-laptop');
    const headers = { authorization: `Bearer ${sender.credential}` };
    const streams = Array.from({ length: 8 }, () => new SseReader(relay.port, headers, '/v1/events'));
    try {
      for (const stream of streams) assert.equal(await opened(stream), 200);
      const refused = new SseReader(relay.port, headers, '/v1/events');
      assert.equal(await opened(refused), 429);
      await within(refused.ended, 'the refused stream to end');
      assert.equal(refused.headers['retry-after'], '30');
      assert.deepEqual(JSON.parse(refused.text), {
        error: 'rate_limited',
        error_description:
          'This installation has 8 event streams open already; close one before opening another.',
      });
      const otherStream = new SseReader(
        relay.port,
        { authorization: `Bearer ${other.credential}` },
        '/v1/events',
      );
      assert.equal(await opened(otherStream), 200, 'another installation has its own places');
      otherStream.close();
      streams.pop()!.close();
      await waitFor(async () => {
        const again = new SseReader(relay.port, headers, '/v1/events');
        const status = await opened(again);
        if (status === 200) streams.push(again);
        else again.close();
        return status === 200;
      }, 'a place for a new stream');
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });

  it('one browser session holds at most 8 inbox streams; another session of the same person has its own', async () => {
    const headers = { cookie: web.cookieHeader() };
    const streams = Array.from({ length: 8 }, () => new SseReader(relay.port, headers, '/v1/inbox/stream'));
    try {
      for (const stream of streams) assert.equal(await opened(stream), 200);
      const refused = new SseReader(relay.port, headers, '/v1/inbox/stream');
      assert.equal(await opened(refused), 429);
      await within(refused.ended, 'the refused stream to end');
      assert.match(refused.text, /This session has 8 inboxes open already; close a tab or window/);
      const laptop = new WebSession(relay);
      await laptop.get('/sign-in');
      assert.equal((await laptop.post('/sign-in', OPERATOR)).status, 303);
      const second = new SseReader(relay.port, { cookie: laptop.cookieHeader() }, '/v1/inbox/stream');
      assert.equal(await opened(second), 200);
      second.close();
    } finally {
      streams.forEach((stream) => stream.close());
    }
  });
});

describe('the inbox order', () => {
  it("orders by the relay's own receipt time: rows a sender dates in the year 9999 do not hide the others'", async () => {
    const dating = await pairSender(relay, web, 'dates-ahead');
    const honest = await pairSender(relay, web, 'honest-laptop');
    await inBatches(200, (index) =>
      deliver(
        relay,
        dating.credential,
        `n-future-${index}`,
        delivered({ created_at: '9999-12-31T00:00:00.000Z', updated_at: '9999-12-31T00:00:00.000Z' }),
      ),
    );
    assert.equal(
      (await deliver(relay, honest.credential, 'n-honest', delivered({ title: 'Honest' }))).status,
      201,
    );
    const listed = (await web.inbox('GET', '/v1/inbox/notifications')).body['notifications'] as {
      id: string;
      created_at: string;
      received_at: string;
    }[];
    assert.equal(listed[0]?.id, 'n-honest', 'the newest delivery comes first');
    assert.equal(listed[1]?.created_at, '9999-12-31T00:00:00.000Z', "the sender's date is kept as sent");
    assert.ok(Date.parse(listed[1]!.received_at) <= Date.parse(listed[0]!.received_at));
    assert.ok(Date.parse(listed[0]!.received_at) < Date.parse('9999-01-01T00:00:00.000Z'));
  });
});

describe('storage per installation', () => {
  it('keeps 1000 notifications per installation, drops the oldest ended one for a new one, and refuses with 507 when all are active', async () => {
    const sender = await pairSender(relay, web, 'busy-agent');
    assert.equal(
      (await deliver(relay, sender.credential, 'n-first-ended', delivered({ status: 'resolved' }))).status,
      201,
    );
    await inBatches(999, async (index) =>
      assert.equal((await deliver(relay, sender.credential, `n-active-${index}`, delivered())).status, 201),
    );
    assert.equal((await deliver(relay, sender.credential, 'n-one-more', delivered())).status, 201);
    const gone = await api(relay, 'POST', '/v1/notifications/n-first-ended/status', {
      bearer: sender.credential,
      body: { status: 'dismissed' },
    });
    assert.equal(gone.status, 404, 'the oldest ended one made room');

    const refused = await deliver(relay, sender.credential, 'n-too-many', delivered());
    assert.equal(refused.status, 507);
    assert.deepEqual(refused.body, {
      error: 'storage_full',
      error_description:
        'This installation has 1000 notifications on the relay and all of them are active; resolve or dismiss some, then deliver again.',
    });
    assert.equal(
      (
        await deliver(
          relay,
          sender.credential,
          'n-active-0',
          delivered({ title: 'Updated', updated_at: '2026-11-25T17:43:00.000Z' }),
        )
      ).status,
      200,
      'an update of a stored one still goes through',
    );
    const resolved = await api(relay, 'POST', '/v1/notifications/n-active-1/status', {
      bearer: sender.credential,
      body: { status: 'resolved' },
    });
    assert.equal(resolved.status, 200);
    assert.equal((await deliver(relay, sender.credential, 'n-too-many', delivered())).status, 201);
    assert.equal(
      (
        await api(relay, 'POST', '/v1/notifications/n-active-1/status', {
          bearer: sender.credential,
          body: { status: 'dismissed' },
        })
      ).status,
      404,
      'the ended one made room',
    );
  });
});
