/**
 * An installation's event stream opened after a long absence: more events stored than the relay reads
 * at once (1000). Apart from event-routes.test.ts because making the backlog takes seconds.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { deliver, delivered, pairSender, setUpOperator, WebSession } from '../support/relay-web.js';
import { SseReader } from '../support/sse-reader.js';
import { startInProcessRelay, type InProcessRelay } from './in-process-relay.js';

const BACKLOG = 1050;

let relay: InProcessRelay;
let web: WebSession;

before(async () => {
  relay = await startInProcessRelay({ deliveryRate: 100_000 });
  web = await setUpOperator(relay);
});
after(async () => relay.cleanup());

/** Runs `work` for each item, 10 at a time (one client address may hold 64 connections). */
async function tenAtATime<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += 10)
    await Promise.all(items.slice(start, start + 10).map(work));
}

it('sends a backlog of more than 1000 events whole, without waiting for a new one', async () => {
  const box = await pairSender(relay, web, 'backlog-box');
  const ids = Array.from({ length: BACKLOG }, (_, index) => `n-backlog-${index}`);
  // 100 at a time, each dismissed (one event each) before the next: an installation keeps 1000 active at most.
  for (let start = 0; start < ids.length; start += 100) {
    await tenAtATime(ids.slice(start, start + 100), async (id) => {
      assert.equal((await deliver(relay, box.credential, id, delivered())).status, 201);
    });
    const listed = await web.inbox('GET', '/v1/inbox/notifications');
    const active = (
      listed.body['notifications'] as { id: string; inbox_id: string; status: string }[]
    ).filter((item) => item.status === 'active');
    assert.equal(active.length, Math.min(100, ids.length - start));
    await tenAtATime(active, async (item) => {
      const done = await web.inbox('POST', `/v1/inbox/notifications/${item.inbox_id}/status`, {
        status: 'dismissed',
        lifecycle: 1,
      });
      assert.equal(done.status, 200);
    });
  }
  const stream = new SseReader(relay.port, { authorization: `Bearer ${box.credential}` }, '/v1/events');
  try {
    await stream.until((reader) => reader.events.length === BACKLOG, 10_000);
    const sent = stream.events.map((frame) => JSON.parse(frame.data!).notification_id as string);
    assert.deepEqual([...sent].sort(), [...ids].sort(), 'each one once');
  } finally {
    stream.close();
  }
});
