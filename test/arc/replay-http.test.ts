import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { arcEvent, keyedEvent, post, snapshot, unique, type Json } from './fixtures.js';

describe('ARC replays and races against the real broker', () => {
  const broker = useBroker();

  async function byAgent(agent: string): Promise<Json[]> {
    const response = await broker.request('GET', `/v1/notifications?agent=${agent}&limit=500`);
    return (await response.json()) as Json[];
  }

  it('makes one notification of 20 concurrent identical unkeyed events', async () => {
    const agent = unique('racer');
    const event = arcEvent({ sender: { id: agent } });
    const replies = await Promise.all(Array.from({ length: 20 }, () => post(broker, event)));
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    assert.equal(replies.filter((reply) => reply.status === 200).length, 19);
    assert.equal(new Set(replies.map((reply) => reply.body['id'])).size, 1);
    assert.equal((await byAgent(agent)).length, 1);
  });

  it('makes one notification of 20 sequential retries of one event', async () => {
    const agent = unique('retrier');
    const event = arcEvent({ sender: { id: agent } });
    for (let attempt = 0; attempt < 20; attempt++) {
      assert.equal((await post(broker, event)).status, attempt === 0 ? 201 : 200);
    }
    assert.equal((await byAgent(agent)).length, 1);
  });

  it('keeps one active condition for 20 concurrent keyed creates with distinct event_ids', async () => {
    const key = unique('storm');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        post(broker, keyedEvent('request.created', key, { message: `attempt ${index}` })),
      ),
    );
    assert.equal(replies.filter((reply) => reply.status === 201).length, 1);
    assert.equal(replies.filter((reply) => reply.status === 200).length, 19);
    assert.equal(new Set(replies.map((reply) => reply.body['id'])).size, 1);
    const active = ((await snapshot(broker)) as Json[]).filter((dto) => dto['key'] === key);
    assert.equal(active.length, 1);
  });

  it('makes 20 notifications of 20 concurrent events with distinct event_ids', async () => {
    const agent = unique('crowd');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => post(broker, arcEvent({ sender: { id: agent } }))),
    );
    assert.ok(replies.every((reply) => reply.status === 201));
    assert.equal((await byAgent(agent)).length, 20);
  });

  it('answers 401 without the bearer token and creates nothing', async () => {
    const before = await snapshot(broker);
    const response = await fetch(`${broker.baseUrl}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(arcEvent()),
    });
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: 'unauthorized' });
    assert.deepEqual(await snapshot(broker), before);
  });
});

describe('ARC body limit and rate limit, shared with native creation', () => {
  const broker = useBroker({ config: { maxRequestBodyBytes: 2048, rateLimitPerSecond: 3 } });

  /** Waits for the start of a fresh one-second rate window. */
  async function nextSecond(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
  }

  it('answers 413 with no body to an event over maxRequestBodyBytes and creates nothing', async () => {
    await nextSecond();
    const before = await snapshot(broker);
    const response = await broker.request(
      'POST',
      '/v1/events',
      arcEvent({ request: { kind: 'information', message: 'm'.repeat(3000) } }),
    );
    assert.equal(response.status, 413);
    assert.equal(await response.text(), '');
    await nextSecond();
    assert.deepEqual(await snapshot(broker), before);
  });

  it('counts events and native creates against one per-token limit: 429 with Retry-After: 1', async () => {
    await nextSecond();
    const before = await snapshot(broker);
    for (let index = 0; index < 3; index++) {
      const response = await broker.request('POST', '/v1/notifications', {
        title: 't',
        message: `m${index}`,
      });
      assert.equal(response.status, 201);
    }
    const limited = await broker.request('POST', '/v1/events', arcEvent());
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.deepEqual(await limited.json(), { error: 'rate limit exceeded' });
    assert.equal((await snapshot(broker)).length, before.length + 3);
  });
});
