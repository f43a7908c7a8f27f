import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { startMosquitto, watch, type Mosquitto } from '../support/mosquitto.js';
import { waitFor } from '../support/wait-for.js';
import { listening, mqttProvider, providerView, raise } from './mqtt-support.js';

describe('MQTT with a password file', { timeout: 60_000 }, () => {
  let mosquitto: Mosquitto;
  let broker: BrokerProcess;

  before(async () => {
    mosquitto = await startMosquitto({ users: { notify: 'right horse battery' } });
    broker = await startBroker();
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await mosquitto.cleanup();
  });

  it('says the broker refuses a wrong password (mosquitto answers 5, not authorized), and publishes once the password is right', async () => {
    const id = await mqttProvider(broker, { url: mosquitto.url, username: 'notify', password: 'wrong' });
    const refused = await listening(broker, id, 'refused');
    assert.equal(refused.reason, 'mqtt_not_authorized');
    await raise(broker, { title: 'Refused?', type: 'info', actions: undefined });
    const view = await waitFor(async () => {
      const current = await providerView(broker, id);
      return current.lastResult ? current : undefined;
    }, 'the delivery result');
    assert.deepEqual([view.health, view.lastResult?.reason], ['failing', 'mqtt_not_authorized']);

    const patched = await broker.request('PATCH', `/v1/providers/${id}`, {
      settings: { password: 'right horse battery' },
    });
    assert.equal(patched.status, 200);
    await listening(broker, id, 'listening');
    const watcher = await watch(mosquitto, ['notify/#'], {
      username: 'notify',
      password: 'right horse battery',
    });
    try {
      const created = await raise(broker, { title: 'Accepted?' });
      await watcher.next(`notify/notifications/${created.id}`, (p) => p.includes('Accepted?'), 'the state');
      await watcher.next('notify/waiting', (count) => count === '1', 'the waiting count');
    } finally {
      await watcher.close();
    }
  });
});
