/**
 * `notify relay pair` trusts nothing the relay or the resolver says about where to go: a verification
 * page must be on the relay's own origin (the plain URL too), and every request goes to the addresses
 * that were checked, whatever a later DNS answer says.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { startTestRelay, type TestRelay, type TestRelayOptions } from '../support/test-relay.js';
import { makeThrowawayCert } from '../support/throwaway-cert.js';
import { pair, profileOf } from './relay-cli.js';

const REBINDING_DNS = new URL('../support/rebinding-dns.js', import.meta.url).href;
const NAME = 'relay.example.com';

describe('notify relay pair: where it connects and what it shows', () => {
  const broker = useBroker();
  const relays: TestRelay[] = [];
  const cleanups: (() => unknown)[] = [];
  after(async () => {
    await Promise.all(relays.map((relay) => relay.close()));
    for (const cleanup of cleanups) await cleanup();
  });
  async function relay(options: TestRelayOptions = {}): Promise<TestRelay> {
    const started = await startTestRelay(options);
    relays.push(started);
    return started;
  }

  it('refuses a plain verification URL on another origin even when the complete one is on the relay', async () => {
    const test = await relay({ plainVerificationOrigin: 'https://relay.example.net' });
    const result = await pair(broker, test);
    assert.equal(result.code, 1, result.stdout);
    assert.equal(result.stdout, '');
    assert.ok(!result.stderr.includes('relay.example.net') && !result.stderr.includes('WDJB'), result.stderr);
    assert.match(result.stderr, /sent a verification URL on another origin than http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(test.calls.filter((call) => call.path.endsWith('/poll')).length, 0);
    assert.equal(await profileOf(broker, test), undefined);
  });

  it('connects only to the address it checked: a second DNS answer pointing elsewhere never gets a connection', async () => {
    const cert = makeThrowawayCert([NAME]);
    cleanups.push(() => cert.remove());
    const test = await relay({ tls: cert });
    const port = Number(new URL(test.url).port);
    // Another machine on the same port, where a rebinding resolver would send the requests.
    let rogueConnections = 0;
    const rogue: Server = createServer((socket) => {
      rogueConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => rogue.listen(port, '127.0.0.2', resolve));
    cleanups.push(() => new Promise((resolve) => rogue.close(resolve)));

    const url = `https://${NAME}:${port}`;
    const result = await runNotify(['relay', 'pair', '--url', url, '--allow-private'], {
      env: {
        ...broker.home.env,
        NODE_EXTRA_CA_CERTS: cert.certFile,
        NODE_OPTIONS: `--import ${REBINDING_DNS}`,
        NOTIFY_TEST_REBIND_HOST: NAME,
        NOTIFY_TEST_REBIND_FIRST: '127.0.0.1',
        NOTIFY_TEST_REBIND_LATER: '127.0.0.2',
      },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(rogueConnections, 0, 'the address of the later DNS answer was connected to');
    assert.ok(test.calls.some((call) => call.path === '/v1/installation'));
    assert.ok(await profileOf(broker, { url }));
  });
});
