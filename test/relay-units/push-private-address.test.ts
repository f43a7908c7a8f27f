/**
 * Where the relay posts a push (docs/relay.md "Phone push"): only to push services on the internet. A
 * device registered while its endpoint's name pointed elsewhere, or before the rule, must not make the
 * relay post into its own machine or network when the push is sent. Here the devices are registered on
 * a relay that allows this machine (as tests do), and a sender that does not then sends to them.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PushService } from '../support/push-service.js';
import { PushSender } from '../../src/relay-server/push-sender.js';
import {
  ada,
  adaSender,
  addDevice,
  CONTACT,
  device,
  notify,
  queued,
  relay,
  removeAll,
  service,
  startPushWorld,
  stopPushWorld,
  waitForPush,
} from './push-world.js';

let strict: PushSender;

before(async () => {
  await startPushWorld();
  await relay.pushSender!.stop();
  strict = new PushSender(relay.store, relay.context.relay, relay.context.hub, relay.clock, {
    contact: CONTACT,
    keys: (await relay.store.push.vapidKeys())!,
    log: relay.log,
  });
  strict.start();
});
after(async () => {
  await strict.stop();
  await stopPushWorld();
});

/** The failure the device shows once its push was given up, and the queue left empty. */
async function givenUp(deviceId: string): Promise<string | undefined> {
  return waitForPush(async () => {
    const shown = await device(ada, deviceId);
    return shown?.last_failure !== undefined && (await queued(deviceId)).length === 0 && shown.last_failure;
  }, 'the push given up');
}

describe('phone push: a sender that does not allow this machine', () => {
  afterEach(removeAll);

  it('never posts to an endpoint written as a loopback address, and says why on the device', async () => {
    const { id: deviceId, subscription } = await addDevice(ada);
    assert.match(subscription.endpoint, /^http:\/\/127\.0\.0\.1:/);
    await notify(adaSender);
    assert.equal(await givenUp(deviceId), "the push service's address 127.0.0.1 is on this machine");
    assert.deepEqual(service.received, [], 'nothing reached the push service');
  });

  it('never posts to a name that resolves to this machine (localhost), checked when connecting', async () => {
    const byName = await PushService.start();
    try {
      const key = await ada.inbox('GET', '/v1/inbox/push/key');
      byName.trust(key.body['publicKey'] as string);
      const subscription = byName.subscribe();
      const endpoint = subscription.endpoint.replace('//127.0.0.1:', '//localhost:');
      const added = await ada.inbox('POST', '/v1/inbox/push/subscriptions', { ...subscription, endpoint });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      await notify(adaSender);
      assert.match(
        (await givenUp(added.body['id'] as string)) ?? '',
        /^the push service's address (127\.0\.0\.1|::1) is on this machine$/,
      );
      assert.deepEqual(byName.received, [], 'nothing reached the push service');
    } finally {
      await byName.stop();
    }
  });
});
