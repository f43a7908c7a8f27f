import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { SseReader } from '../support/sse-reader.js';

const auth = (broker: BrokerProcess) => ({ authorization: `Bearer ${broker.token}` });

async function create(broker: BrokerProcess, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await broker.request('POST', '/v1/notifications', { message: 'm', ...body });
  assert.equal(response.status, 201);
  return (await response.json()) as { id: string };
}

describe('GET /v1/stream', () => {
  const broker = useBroker();

  it('sends every change in commit order, named by what happened, with the notification as data', async () => {
    const reader = new SseReader(broker.port, auth(broker));
    await reader.until((r) => r.status === 200 && r.text.includes('retry:'));
    assert.match(String(reader.headers['content-type']), /^text\/event-stream/);
    const first = await create(broker, { title: 'one', key: 'stream-order' });
    await create(broker, { title: 'one again', key: 'stream-order' });
    await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'resolved' });
    await broker.request('PATCH', `/v1/notifications/${first.id}`, { status: 'active' });
    await broker.request('POST', `/v1/notifications/${first.id}/dismiss`);
    await reader.until((r) => r.events.length === 5);
    assert.deepEqual(
      reader.events.map((frame) => [
        frame.event,
        JSON.parse(frame.data!).title,
        JSON.parse(frame.data!).status,
      ]),
      [
        ['notification.created', 'one', 'active'],
        ['notification.updated', 'one again', 'active'],
        ['notification.resolved', 'one again', 'resolved'],
        ['notification.reopened', 'one again', 'active'],
        ['notification.dismissed', 'one again', 'dismissed'],
      ],
    );
    assert.ok(reader.events.every((frame) => JSON.parse(frame.data!).id === first.id));
    const sequence = reader.events.map((frame) => Number(frame.id!.split('-')[1]));
    assert.deepEqual(
      sequence,
      [...sequence].sort((a, b) => a - b),
    );
    assert.equal(new Set(sequence).size, 5);
    reader.close();
  });

  it('sends nothing for a write that changes nothing (a repeated PATCH, an ARC replay)', async () => {
    const created = await create(broker, { title: 'quiet' });
    const event = {
      arc_version: '0.1',
      event_id: 'stream-replay-1',
      event_type: 'request.created',
      occurred_at: new Date().toISOString(),
      sender: { id: 'stream-test' },
      request: { kind: 'information', message: 'once' },
    };
    assert.equal((await broker.request('POST', '/v1/events', event)).status, 201);
    const reader = new SseReader(broker.port, auth(broker));
    await reader.until((r) => r.status === 200);
    await broker.request('PATCH', `/v1/notifications/${created.id}`, { status: 'active' });
    assert.equal((await broker.request('POST', '/v1/events', event)).status, 200, 'the replay');
    await create(broker, { title: 'marker' });
    await reader.until((r) => r.events.length === 1);
    assert.equal(JSON.parse(reader.events[0]!.data!).title, 'marker');
    reader.close();
  });

  it('resumes after a reconnect with Last-Event-ID: exactly the changes missed, in order', async () => {
    const first = new SseReader(broker.port, auth(broker));
    await first.until((r) => r.status === 200);
    await create(broker, { title: 'seen' });
    await first.until((r) => r.events.length === 1);
    const lastSeen = first.events[0]!.id!;
    first.close();
    await create(broker, { title: 'missed 1' });
    await create(broker, { title: 'missed 2' });
    const second = new SseReader(broker.port, { ...auth(broker), 'last-event-id': lastSeen });
    await second.until((r) => r.events.length === 2);
    assert.deepEqual(
      second.events.map((frame) => JSON.parse(frame.data!).title),
      ['missed 1', 'missed 2'],
    );
    second.close();
  });

  it('tells a client whose Last-Event-ID cannot be resumed to list again (reset)', async () => {
    const reader = new SseReader(broker.port, { ...auth(broker), 'last-event-id': 'zzz-12' });
    await reader.until((r) => r.events.length === 1);
    assert.equal(reader.events[0]!.event, 'reset');
    assert.match(reader.events[0]!.data!, /list the notifications again/);
    reader.close();
  });

  it('keeps an idle stream alive with heartbeat comments at the asked interval', async () => {
    const reader = new SseReader(broker.port, auth(broker), '/v1/stream?heartbeat=1');
    await reader.until((r) => r.frames.some((frame) => frame.comment === 'heartbeat'), 4000);
    reader.close();
    const bad = await broker.request('GET', '/v1/stream?heartbeat=0');
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'heartbeat must be an integer from 1 to 300 (seconds)' });
  });

  it('with ?batch sends the first change at once, and a flood that follows as one reset to list again', async () => {
    const reader = new SseReader(broker.port, auth(broker), '/v1/stream?batch=5000');
    await reader.until((r) => r.status === 200);
    await create(broker, { title: 'first of a flood' });
    await reader.until((r) => r.events.length === 1);
    assert.equal(JSON.parse(reader.events[0]!.data!).title, 'first of a flood');
    await Promise.all(Array.from({ length: 101 }, (_, n) => create(broker, { title: `flood ${n}` })));
    await reader.until((r) => r.events.length === 2, 10_000);
    const reset = reader.events[1]!;
    assert.equal(reset.event, 'reset');
    assert.deepEqual(JSON.parse(reset.data!), {
      reason: 'more than 100 changes in 5000 ms; list the notifications again',
    });
    // Its id is the flood's last event: a reconnect resumes after the flood, which the list shows.
    const resumed = new SseReader(broker.port, { ...auth(broker), 'last-event-id': reset.id! });
    await resumed.until((r) => r.status === 200);
    const after = await create(broker, { title: 'after the flood' });
    await resumed.until((r) => r.events.length === 1);
    assert.equal(JSON.parse(resumed.events[0]!.data!).id, after.id);
    reader.close();
    resumed.close();
    const bad = await broker.request('GET', '/v1/stream?batch=0');
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'batch must be an integer from 1 to 5000 (milliseconds)' });
  });

  it('needs the token like every /v1 route', async () => {
    const reader = new SseReader(broker.port, {});
    await reader.ended;
    assert.equal(reader.status, 401);
    assert.equal(reader.text, '{"error":"unauthorized"}\n');
  });

  it('drops a consumer that stops reading instead of buffering for it, and others keep everything', async () => {
    const fast = new SseReader(broker.port, auth(broker));
    await fast.until((r) => r.status === 200);
    // A raw socket that sends the request and then never reads.
    const slow = connect(broker.port, '127.0.0.1');
    slow.write(
      `GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:${broker.port}\r\nAuthorization: Bearer ${broker.token}\r\n\r\n`,
    );
    slow.pause();
    const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    const message = 'x'.repeat(4000);
    const total = 1500;
    for (let batch = 0; batch < total; batch += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => create(broker, { title: `bulk ${batch + i}`, message })),
      );
    }
    await fast.until((r) => r.events.length === total, 20000);
    let received = 0;
    slow.on('data', (chunk: Buffer) => (received += chunk.length));
    slow.resume();
    await closed;
    // Less than was published: the broker cut it off rather than holding megabytes for it.
    assert.ok(received < total * message.length, `slow consumer received ${received} bytes`);
    const health = await broker.request('GET', '/v1/health');
    assert.equal(health.status, 200);
    fast.close();
  });
});

describe('GET /v1/stream limits and stop', () => {
  it('refuses subscribers past the bound with 503 and Retry-After, and frees a slot on close', async () => {
    const broker = await startBroker();
    try {
      const readers = Array.from({ length: 256 }, () => new SseReader(broker.port, auth(broker)));
      await Promise.all(readers.map((reader) => reader.until((r) => r.status === 200, 10000)));
      const refused = await broker.request('GET', '/v1/stream');
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.deepEqual(await refused.json(), {
        error: 'too many open event streams (256); close one and try again',
      });
      readers[0]!.close();
      // The slot frees once the broker sees the socket go, which may take a moment.
      let again = new SseReader(broker.port, auth(broker));
      for (let attempt = 0; attempt < 50; attempt++) {
        await again.until((r) => r.status !== 0);
        if (again.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
        again = new SseReader(broker.port, auth(broker));
      }
      assert.equal(again.status, 200);
      readers.forEach((reader) => reader.close());
      again.close();
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('ends open streams when the broker stops, which exits 0 promptly', async () => {
    const broker = await startBroker();
    const reader = new SseReader(broker.port, auth(broker));
    await reader.until((r) => r.status === 200);
    const code = await broker.stop();
    await reader.ended;
    assert.equal(code, 0);
    broker.home.cleanup();
  });
});
