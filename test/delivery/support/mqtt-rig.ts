import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { parser, type IPublishPacket } from 'mqtt-packet';
import { mqtt } from '../../../src/delivery/providers/mqtt/mqtt.js';
import { startMosquitto } from '../../support/mosquitto.js';
import { secretValue } from './fixtures.js';
import type { Failure, ProviderRig } from './rig.js';

/**
 * MQTT against a real mosquitto behind a small TCP relay of the test's own: it passes the connection
 * through and records every PUBLISH the provider sends (before mosquitto acknowledges it), holds new
 * connections without an answer (hang), or answers CONNACK 3 "server unavailable" (a transient
 * refusal) or 5 "not authorized" (a permanent one) as a broker does. A mode change cuts the
 * connections open, as a restarted broker would.
 */

const CONNACK = (code: number) => Buffer.from([0x20, 0x02, 0x00, code]);

export const mqttRig: ProviderRig = {
  kind: mqtt,
  expected: {
    http500: { outcome: 'retry', reason: 'mqtt_refused' },
    http503: { outcome: 'retry', reason: 'mqtt_refused' },
    http400: { outcome: 'reject', reason: 'mqtt_not_authorized' },
    refused: { outcome: 'retry', reason: 'connection_refused' },
  },
  timeoutMs: 1000,
  async start() {
    const password = secretValue('mqtt-');
    const mosquitto = await startMosquitto({ users: { notify: password } });
    let mode: Failure = 'ok';
    const published: IPublishPacket[] = [];
    const open = new Set<Socket>();
    const relay = createServer((socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
      if (mode === 'hang') return;
      if (mode !== 'ok') {
        socket.end(CONNACK(mode === 'http400' ? 5 : 3));
        return;
      }
      const upstream = connect(mosquitto.port, '127.0.0.1');
      const packets = parser();
      packets.on('packet', (packet) => {
        if (packet.cmd === 'publish') published.push(packet);
      });
      upstream.on('error', () => socket.destroy());
      upstream.on('close', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      socket.on('data', (chunk: Buffer) => {
        packets.parse(chunk);
        upstream.write(chunk);
      });
      upstream.pipe(socket);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as { port: number }).port;
    const settings = { url: `mqtt://127.0.0.1:${port}`, username: 'notify', password };
    const states = () =>
      published.filter(
        (packet) => packet.topic.startsWith('notify/notifications/') && packet.payload.length > 0,
      );
    const lastState = () => {
      const packet = states().at(-1);
      assert.ok(packet, 'the broker got no state');
      return {
        retain: packet.retain,
        state: JSON.parse(packet.payload.toString()) as Record<string, unknown>,
      };
    };
    return {
      settings,
      secrets: [password],
      refusedSettings: (free) => ({ ...settings, url: `mqtt://127.0.0.1:${free}` }),
      set(failure) {
        mode = failure;
        for (const socket of open) socket.destroy();
      },
      received: () => states().map((packet) => `${packet.topic}\n${packet.payload.toString()}`),
      assertDelivered(op, result) {
        assert.deepEqual(result, {
          outcome: 'delivered',
          reference: `notify/notifications/${op.notification.id}`,
        });
        const { retain, state } = lastState();
        assert.equal(retain, true);
        assert.deepEqual(state, JSON.parse(JSON.stringify(op.notification)));
      },
      assertUpdated(update) {
        assert.equal(lastState().state['title'], update.notification.title);
      },
      assertCleared(clear) {
        const packet = published
          .filter((p) => p.topic === `notify/notifications/${clear.notification.id}`)
          .at(-1);
        assert.deepEqual([packet?.retain, packet?.payload.length], [true, 0]);
      },
      close: async () => {
        for (const socket of open) socket.destroy();
        await new Promise<void>((resolve) => relay.close(() => resolve()));
        await mosquitto.cleanup();
      },
    };
  },
};
