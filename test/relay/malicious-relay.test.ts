import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLog, waitForLog } from '../support/broker-log.js';
import { startBroker } from '../support/broker-process.js';
import { startTestRelay } from '../support/test-relay.js';
import { waitFor } from '../support/wait-for.js';
import { pair, profileOf } from './relay-cli.js';

/**
 * A relay that sends without end on its event stream (one endless line, or events or keep-alive comments
 * without pause) against a notifyd with a 256 MiB heap: the broker ends that stream with one log line,
 * reconnects with the usual back-off, and keeps answering.
 */
describe('a malicious relay cannot exhaust notifyd', () => {
  for (const [kind, limit] of [
    ['endless-line', 'a line or event over 65536 characters'],
    ['flood', 'more than 100 events a second'],
    // Keep-alive comments are events too as far as the pace goes: a loop of them is no keep-alive.
    ['comment-flood', 'more than 100 events a second'],
  ] as const) {
    it(`${kind}: the stream is closed with one log line, and the broker lives`, async () => {
      const broker = await startBroker({ env: { NODE_OPTIONS: '--max-old-space-size=256' } });
      const relay = await startTestRelay({ firstStream: kind });
      try {
        assert.equal((await pair(broker, relay)).code, 0);
        const providerId = (await profileOf(broker, relay))!.id;
        assert.equal((await broker.request('POST', `/v1/providers/${providerId}/enable`)).status, 200);
        const breach = `relay: provider ${providerId}: event stream closed: the relay sent ${limit}; reconnecting in`;
        await waitForLog(broker.home, breach, 60_000);
        // The back-off ran out and the ordinary stream after it is open: the broker lived through it.
        await waitFor(() => relay.openStreams() === 1, 'the stream after the reconnect', 20_000);
        assert.equal((await broker.request('GET', '/v1/health')).status, 200);
        assert.equal(broker.child.exitCode, null);
        const log = readLog(broker.home);
        assert.equal(log.split('\n').filter((line) => line.includes('event stream closed')).length, 1, log);
      } finally {
        await broker.stop();
        broker.home.cleanup();
        await relay.close();
      }
    });
  }
});
