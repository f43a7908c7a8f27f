import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startMatrixApi, type MatrixApi } from '../support/matrix-api.js';
import { waitFor } from '../support/wait-for.js';
import { ask, channelProvider, notificationOf } from './support.js';

const ALICE = '@alice:example.test';

describe('matrix: notifyd restarts while a /sync long poll is open', { timeout: 60_000 }, () => {
  let broker: BrokerProcess;
  let api: MatrixApi;

  before(async () => {
    broker = await startBroker();
    api = await startMatrixApi();
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await api.close();
  });

  it('applies the reaction given while it was down once it is back, and none twice', async () => {
    await channelProvider(broker, 'matrix', {
      homeserverUrl: api.url,
      accessToken: api.accessToken,
      roomId: api.roomId,
      allowedUserIds: ALICE,
    });
    const first = await ask(broker, 'Before the restart', 'one');
    const firstMessage = await api.nextMessage();
    const second = await ask(broker, 'Across the restart', 'two');
    const secondMessage = await api.nextMessage();
    await waitFor(async () => {
      const items = (await (await broker.request('GET', '/v1/outbox')).json()) as { state: string }[];
      return items.length === 2 && items.every((item) => item.state === 'delivered');
    }, 'both sends delivered');
    await api.pollOpen();
    const before = api.react(firstMessage.event_id, '✅', ALICE);
    assert.equal(await api.noticeFor(before), 'Answered “Allow” on Matrix');
    await api.pollOpen();

    // notifyd stops with the /sync open; Alice reacts meanwhile; notifyd comes back.
    assert.equal(await broker.stop(), 0);
    const during = api.react(secondMessage.event_id, '❌', ALICE);
    broker = await startBroker({ home: broker.home });
    assert.equal(await api.noticeFor(during), 'Answered “Deny” on Matrix');
    const answered = await notificationOf(broker, second.id);
    assert.deepEqual([answered.answer?.action, answered.answer?.surface], ['deny', 'matrix']);
    assert.equal((await notificationOf(broker, first.id)).answer?.action, 'allow');

    // The reaction read before the restart is behind the saved sync token: never read again.
    await api.pollOpen();
    const notices = (eventId: string) =>
      api.timeline.filter(
        (event) =>
          event.content['msgtype'] === 'm.notice' &&
          (event.content['m.relates_to'] as { 'm.in_reply_to'?: { event_id?: string } })['m.in_reply_to']
            ?.event_id === eventId,
      ).length;
    assert.equal(notices(before), 1);
    assert.equal(notices(during), 1);
    const putsOfNotice = api.calls.filter((call) => call.path.includes('notify-outcome-')).length;
    assert.equal(putsOfNotice, 2, 'each outcome told once');
  });
});
