/**
 * The relay provider's edges in the real notifyd against the test relay: a dismissal is sent as a
 * dismissal, a clear of what the relay no longer holds is done, and a 403 on the event stream is a
 * refused credential (no more retries, `notify relay status` says so).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startTestRelay, type TestRelay } from '../support/test-relay.js';
import { waitFor } from '../support/wait-for.js';
import { notify, pair, profileOf, routeEverythingTo, states } from './relay-cli.js';

interface OutboxItem {
  notificationId: string;
  operation: string;
  state: string;
  lastStatus: number | null;
}

describe('relay provider: clears and refusals', () => {
  let broker: BrokerProcess;
  let relay: TestRelay;
  let providerId: string;

  before(async () => {
    broker = await startBroker();
    relay = await startTestRelay({ name: 'Phone relay' });
    assert.equal((await pair(broker, relay)).code, 0);
    providerId = (await profileOf(broker, relay))!.id;
    await routeEverythingTo(broker, providerId);
    await waitForLog(broker.home, `relay: provider ${providerId}: event stream open`);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await relay.close();
  });

  async function createDelivered(title: string): Promise<string> {
    const response = await broker.request('POST', '/v1/notifications', { title, message: 'm' });
    assert.equal(response.status, 201);
    const { id } = (await response.json()) as { id: string };
    await waitFor(() => relay.notifications.get(id), `${title} on the relay`);
    return id;
  }

  async function clearOf(id: string): Promise<OutboxItem> {
    return waitFor(async () => {
      const items = (await (
        await broker.request('GET', `/v1/outbox?notificationId=${id}`)
      ).json()) as OutboxItem[];
      const clear = items.find((item) => item.operation === 'clear');
      return clear !== undefined && !['pending', 'in_flight', 'waiting'].includes(clear.state) && clear;
    }, `the clear of ${id} to settle`);
  }

  it('a notification dismissed at the desk is dismissed on the phone, not resolved', async () => {
    const id = await createDelivered('Dismiss me');
    assert.equal((await broker.request('POST', `/v1/notifications/${id}/dismiss`)).status, 200);
    await waitFor(() => relay.notifications.get(id)?.status !== 'active', 'the clear on the relay');
    assert.equal(relay.notifications.get(id)?.status, 'dismissed');
    const resolvedId = await createDelivered('Resolve me');
    await broker.request('PATCH', `/v1/notifications/${resolvedId}`, { status: 'resolved' });
    await waitFor(() => relay.notifications.get(resolvedId)?.status !== 'active', 'the clear on the relay');
    assert.equal(relay.notifications.get(resolvedId)?.status, 'resolved');
  });

  it('a notification an agent token raised with a long agent name reaches the phone, its sender cut to the 100 characters the relay takes', async () => {
    const name = `build-server-in-the-basement-${'x'.repeat(30)}`;
    const made = await broker.request('POST', '/v1/tokens', { name });
    assert.equal(made.status, 201);
    const { token } = (await made.json()) as { token: string };
    const agent = `claude-code-${'a'.repeat(80)}`;
    const created = await broker.request(
      'POST',
      '/v1/notifications',
      { title: 'From the basement', message: 'm', agent },
      { authorization: `Bearer ${token}` },
    );
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const held = await waitFor(() => relay.notifications.get(id), 'the notification on the relay');
    const sent = held.body['agent'] as string;
    assert.equal(sent, `${name} · ${agent}`.slice(0, 100));
  });

  it('a clear answered 404 (the relay no longer holds the notification) counts as delivered, not failed', async () => {
    const id = await createDelivered('Forgotten by the relay');
    relay.notifications.delete(id);
    await broker.request('PATCH', `/v1/notifications/${id}`, { status: 'resolved' });
    const clear = await clearOf(id);
    assert.deepEqual([clear.state, clear.lastStatus], ['delivered', 404]);
  });

  it('a 403 on the event stream is a refused credential: no reconnecting, and relay status says so', async () => {
    relay.revoke(403);
    await waitForLog(
      broker.home,
      `relay: provider ${providerId}: the relay refuses the credential (HTTP 403`,
      15_000,
    );
    assert.doesNotMatch(readLog(broker.home), /event stream http_403; reconnecting/);
    const status = await notify(broker, 'relay', 'status', '--json');
    assert.equal(status.code, 1, status.stderr);
    const [shown] = states(status);
    assert.equal(shown!['state'], 'revoked');
    assert.match(String(shown!['summary']), /refuses this machine's credential \(HTTP 403\)/);
  });
});
