import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startTestRelay, type TestRelay } from '../support/test-relay.js';
import { waitFor } from '../support/wait-for.js';
import { pair, profileOf, routeEverythingTo } from './relay-cli.js';

/** notifyd's log when a relay sends events it cannot apply: a few lines a minute, not one per event. */
describe('relay events notifyd drops', () => {
  let broker: BrokerProcess;
  let relay: TestRelay;

  before(async () => {
    broker = await startBroker();
    relay = await startTestRelay({ name: 'Noisy relay' });
    assert.equal((await pair(broker, relay)).code, 0);
    const providerId = (await profileOf(broker, relay))!.id;
    await routeEverythingTo(broker, providerId);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await relay.close();
  });

  it('logs the first 5 dropped events of a minute and counts the rest in one summary line', async () => {
    await waitFor(() => relay.openStreams() === 1, 'the event stream');
    for (let index = 0; index < 200; index++) relay.answer(`n-nowhere-${index}`, 'allow', 1);
    const created = (await (
      await broker.request('POST', '/v1/notifications', {
        title: 'Deploy?',
        message: 'm',
        actions: [{ id: 'allow', label: 'Allow' }],
      })
    ).json()) as { id: string };
    await waitFor(() => relay.notifications.get(created.id), 'the delivery');
    relay.answer(created.id, 'allow');
    // Events are applied in order: once this one is, the 200 before it were dropped.
    await waitFor(async () => {
      const now = (await (await broker.request('GET', `/v1/notifications/${created.id}`)).json()) as {
        answer?: unknown;
      };
      return now.answer !== undefined;
    }, 'the answer after the dropped ones');
    const dropped = readLog(broker.home)
      .split('\n')
      .filter((line) => / dropped: /.test(line));
    assert.equal(dropped.length, 5, dropped.join('\n'));
    assert.match(dropped[0]!, /answer for notification n-nowhere-0 \(lifecycle 1\) dropped/);
    await broker.stop();
    const summary = await waitForLog(broker.home, 'more events from relays dropped');
    assert.match(
      summary,
      /relay: 195 more events from relays dropped in the last minute \(the first 5 are logged above\)/,
    );
  });
});
