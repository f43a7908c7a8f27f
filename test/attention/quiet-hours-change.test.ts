import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createTempHome, startBroker, type BrokerProcess, type TempHome } from '../support/broker-process.js';
import { createDrivenClock, type DrivenClock } from '../support/driven-clock.js';
import { callJson, type Body } from '../support/outbox-broker.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

const HOUR = 3600_000;

/**
 * Quiet hours changed or switched off through PATCH /v1/settings (issue 35): the real broker on a
 * driven clock, a route to a local receiver standing in for a webhook. The clock stands still after
 * the change, so whatever arrives was re-timed by the change itself.
 */
describe('quiet hours that change re-time what they hold', () => {
  let receiver: Receiver;
  let home: TempHome;
  let clock: DrivenClock;
  let broker: BrokerProcess;
  const day = new Date();
  const todayAt = (hours: number) =>
    Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours);
  const iso = (at: number) => new Date(at).toISOString().replace('Z', '+00:00');

  const json = (method: string, path: string, body?: unknown) => callJson(broker, method, path, body);
  const sendOf = async (notificationId: string) =>
    ((await json('GET', '/v1/outbox?limit=500')).body as unknown as Body[]).find(
      (item) => item['notificationId'] === notificationId && item['operation'] === 'send',
    )!;

  before(async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  after(() => receiver.close());
  beforeEach(async () => {
    receiver.received.length = 0;
    home = createTempHome();
    clock = createDrivenClock(todayAt(23));
    broker = await startBroker({ home, ...clock.options });
    const provider = await json('POST', '/v1/providers', {
      kind: 'test-http',
      settings: { url: receiver.url },
    });
    assert.equal(provider.status, 201, JSON.stringify(provider.body));
    const route = await json('POST', '/v1/routes', {
      providerId: provider.body!['id'],
      minimumPriority: 'low',
    });
    assert.equal(route.status, 201, JSON.stringify(route.body));
    for (const path of [`/v1/providers/${provider.body!['id']}`, `/v1/routes/${route.body!['id']}`])
      assert.equal((await json('POST', `${path}/enable`)).status, 200);
    const quietHours = { windows: [{ from: '22:00', to: '07:00' }], timeZone: 'UTC' };
    assert.equal((await json('PATCH', '/v1/settings', { quietHours })).status, 200);
  });
  afterEach(async () => {
    await broker.stop();
    home.cleanup();
    clock.cleanup();
  });

  it('a send held until 07:00 moves to the new end, then goes out at once when quiet hours are removed', async () => {
    const created = await json('POST', '/v1/notifications', { title: 'asked at night', message: 'm' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body!['id'] as string;
    const morning = todayAt(7) + 24 * HOUR;
    assert.equal((await sendOf(id))['nextAttemptAt'], iso(morning), 'held until the end of quiet hours');

    const shorter = { windows: [{ from: '22:00', to: '05:00' }], timeZone: 'UTC' };
    assert.equal((await json('PATCH', '/v1/settings', { quietHours: shorter })).status, 200);
    await waitFor(
      async () => (await sendOf(id))['nextAttemptAt'] === iso(morning - 2 * HOUR),
      'the send due at the new end, 05:00',
    );

    assert.equal((await json('PATCH', '/v1/settings', { quietHours: null })).status, 200);
    await waitFor(() => receiver.received.length === 1, 'the held send at the receiver');
    assert.equal(receiver.received[0]!.body['event'], 'notification.created');
    await waitFor(async () => (await sendOf(id))['state'] === 'delivered', 'the send delivered');
  });

  it('a snooze that ended inside quiet hours comes back at once when they are removed', async () => {
    const created = await json('POST', '/v1/notifications', { title: 'snoozed', message: 'm' });
    const id = created.body!['id'] as string;
    assert.equal((await json('POST', `/v1/notifications/${id}/snooze`, { minutes: 15 })).status, 200);
    await clock.advance(broker, 16 * 60_000);
    const morning = todayAt(7) + 24 * HOUR;
    await waitFor(
      async () => (await json('GET', `/v1/notifications/${id}`)).body!['snoozedUntil'] === iso(morning),
      'the snooze held until the end of quiet hours',
    );

    assert.equal((await json('PATCH', '/v1/settings', { quietHours: null })).status, 200);
    await waitFor(
      async () => (await json('GET', `/v1/notifications/${id}`)).body!['snoozedUntil'] === undefined,
      'the snooze over at once',
    );
  });
});
