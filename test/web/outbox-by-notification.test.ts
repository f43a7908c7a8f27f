import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { callJson, enabledRouteTo, OUTBOX_BROKER, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

describe("GET /v1/outbox?notificationId: one notification's deliveries", () => {
  const broker = useBroker({ script: OUTBOX_BROKER, env: { NOTIFY_TEST_FIRST_BACKOFF_MS: '50' } });
  let good: Receiver;
  let failing: Receiver;
  before(async () => {
    good = await startReceiver(() => ({ status: 200 }));
    failing = await startReceiver(() => ({ status: 400 }));
  });
  after(async () => {
    await good.close();
    await failing.close();
  });

  it('lists its items on every route with attempts and reasons, and nobody else’s', async () => {
    const delivered = await enabledRouteTo(broker, good.url);
    const refused = await enabledRouteTo(broker, failing.url);
    const create = async (title: string) =>
      (await callJson(broker, 'POST', '/v1/notifications', { title, message: 'm', priority: 'high' })).body!;
    const mine = await create('mine');
    const other = await create('other');
    const items = async (id: string, extra = '') =>
      (await callJson(broker, 'GET', `/v1/outbox?notificationId=${encodeURIComponent(id)}${extra}`))
        .body as Body[];
    await waitFor(async () => {
      const states = (await items(mine['id'])).map((item) => item['state']).sort();
      return states.join() === 'dead,delivered';
    }, 'both deliveries of the notification to settle');

    const listed = await items(mine['id']);
    assert.deepEqual(
      listed.map((item) => item['notificationId']),
      [mine['id'], mine['id']],
    );
    const byRoute = new Map(listed.map((item) => [item['routeId'], item]));
    assert.equal(byRoute.get(delivered.routeId)!['state'], 'delivered');
    assert.equal(byRoute.get(delivered.routeId)!['attempts'], 1);
    const dead = byRoute.get(refused.routeId)!;
    assert.equal(dead['state'], 'dead');
    assert.ok(dead['attempts'] >= 1);
    assert.equal(typeof dead['lastReason'], 'string');
    assert.equal(dead['lastStatus'], 400);

    assert.deepEqual(
      (await items(mine['id'], '&state=dead')).map((item) => item['routeId']),
      [refused.routeId],
    );
    assert.ok((await items(other['id'])).every((item) => item['notificationId'] === other['id']));
    assert.deepEqual(await items('no-such-notification'), []);
    const empty = await callJson(broker, 'GET', '/v1/outbox?notificationId=%20');
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, { error: 'notificationId must not be empty' });
  });
});
