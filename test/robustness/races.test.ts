import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BrokerProcess, useBroker } from '../support/broker-process.js';
import { assertErrorShape, validCreate } from './support.js';

/** Concurrency: one key never has two active notifications, whatever the interleaving. */

interface Dto {
  id: string;
  key?: string;
  status: string;
  title: string;
}

async function activeWithKey(broker: BrokerProcess, key: string): Promise<Dto[]> {
  const response = await broker.request('GET', '/v1/notifications?status=active&limit=500');
  assert.equal(response.status, 200);
  return ((await response.json()) as Dto[]).filter((dto) => dto.key === key);
}

async function create(broker: BrokerProcess, key: string, tag: string): Promise<Dto> {
  const response = await broker.request('POST', '/v1/notifications', validCreate(tag, { key }));
  assert.equal(response.status, 201);
  return (await response.json()) as Dto;
}

async function setStatus(broker: BrokerProcess, id: string, status: string): Promise<void> {
  const response = await broker.request('PATCH', `/v1/notifications/${id}`, { status });
  assert.equal(response.status, 200);
}

describe('races on one key', { timeout: 60_000 }, () => {
  const broker = useBroker();

  it('50 concurrent creates with one key make exactly one active notification', async () => {
    for (let round = 0; round < 5; round++) {
      const key = `race-create-${round}`;
      const titles = Array.from({ length: 50 }, (_, index) => `title ${round}/${index}`);
      const responses = await Promise.all(
        titles.map((title) =>
          broker.request('POST', '/v1/notifications', { title, message: `message ${title}`, key }),
        ),
      );
      const bodies = await Promise.all(
        responses.map(async (response) => [response.status, await response.json()]),
      );
      for (const [status, body] of bodies) assert.equal(status, 201, JSON.stringify(body));
      const ids = new Set(bodies.map(([, body]) => (body as Dto).id));
      assert.equal(ids.size, 1, `50 creates with key ${key} answered ${ids.size} different ids`);
      const active = await activeWithKey(broker, key);
      assert.equal(active.length, 1);
      assert.equal(active[0]!.id, [...ids][0]);
      assert.ok(titles.includes(active[0]!.title), 'the stored title is one of the sent ones');
    }
  });

  it('two terminal notifications of one key reopened concurrently: one becomes active, the other gets 400', async () => {
    for (let round = 0; round < 10; round++) {
      const key = `race-reopen-${round}`;
      const a = await create(broker, key, `a${round}`);
      await setStatus(broker, a.id, 'resolved');
      const b = await create(broker, key, `b${round}`);
      assert.notEqual(a.id, b.id, 'a resolved key starts a new notification');
      await setStatus(broker, b.id, round % 2 ? 'resolved' : 'dismissed');

      const answers = await Promise.all(
        [a.id, b.id].map(async (id) => {
          const response = await broker.request('PATCH', `/v1/notifications/${id}`, { status: 'active' });
          const text = await response.text();
          assertErrorShape(response.status, text, `reopen ${id}`);
          return { id, status: response.status, body: JSON.parse(text) as Dto | { error: string } };
        }),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(statuses, [200, 400], JSON.stringify(answers));
      const winner = answers.find((answer) => answer.status === 200)!;
      assert.equal((winner.body as Dto).status, 'active');
      const active = await activeWithKey(broker, key);
      assert.deepEqual(
        active.map((dto) => dto.id),
        [winner.id],
      );
    }
  });

  it('reopen races against a create with the same key: never two active notifications', async () => {
    for (let round = 0; round < 10; round++) {
      const key = `race-mixed-${round}`;
      const a = await create(broker, key, `a${round}`);
      await setStatus(broker, a.id, 'resolved');
      const b = await create(broker, key, `b${round}`);
      await setStatus(broker, b.id, 'dismissed');

      const [reopenA, reopenB, created] = await Promise.all([
        broker.request('PATCH', `/v1/notifications/${a.id}`, { status: 'active' }),
        broker.request('PATCH', `/v1/notifications/${b.id}`, { status: 'active' }),
        broker.request('POST', '/v1/notifications', validCreate(`c${round}`, { key })),
      ]);
      for (const response of [reopenA, reopenB]) {
        assert.ok(response.status === 200 || response.status === 400, `reopen answered ${response.status}`);
      }
      assert.ok(reopenA.status === 400 || reopenB.status === 400, 'at most one reopen wins');
      assert.equal(created.status, 201);
      const createdId = ((await created.json()) as Dto).id;
      const active = await activeWithKey(broker, key);
      assert.equal(active.length, 1, `key ${key} has ${active.length} active notifications`);
      assert.equal(active[0]!.id, createdId, 'the create answered the id that is active now');
    }
  });
});
