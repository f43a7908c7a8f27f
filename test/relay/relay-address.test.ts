import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitForLog } from '../support/broker-log.js';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { runNotify } from '../support/notify-cli.js';
import { startTestRelay, type TestRelay } from '../support/test-relay.js';
import { makeThrowawayCert, type ThrowawayCert } from '../support/throwaway-cert.js';
import { waitFor } from '../support/wait-for.js';
import { profileOf, states } from './relay-cli.js';

const FAKE_DNS = new URL('../support/fake-dns.js', import.meta.url).href;
const NAME = 'relay.example.com';

/**
 * notifyd applies the pairing's address rules on every connection to a relay, not only `notify relay
 * pair` once: a relay name that later resolves to this machine (DNS rebinding) gets neither the
 * notifications nor the credential unless the profile was paired with --allow-private. DNS is played
 * by a lookup the broker loads at start (test/support/fake-dns.ts), the relay serves HTTPS for its name.
 */
describe('relay address rules on every connection', () => {
  let cert: ThrowawayCert;
  let relay: TestRelay;
  let broker: BrokerProcess;
  let dnsDir: string;
  let providerId: string;
  let port: string;
  const answer = (addresses: string[]) =>
    writeFileSync(join(dnsDir, 'hosts.json'), JSON.stringify({ [NAME]: addresses }));

  before(async () => {
    cert = makeThrowawayCert([NAME]);
    relay = await startTestRelay({ tls: cert });
    port = new URL(relay.url).port;
    dnsDir = mkdtempSync(join(tmpdir(), 'notify-dns-'));
    answer(['127.0.0.1']);
    const trust = { NODE_EXTRA_CA_CERTS: cert.certFile };
    broker = await startBroker({
      env: {
        ...trust,
        NODE_OPTIONS: `--import ${FAKE_DNS}`,
        NOTIFY_TEST_DNS_FILE: join(dnsDir, 'hosts.json'),
      },
    });
    const paired = await runNotify(['relay', 'pair', '--url', relay.url, '--allow-private'], {
      env: { ...broker.home.env, ...trust },
    });
    assert.equal(paired.code, 0, paired.stderr);
    providerId = (await profileOf(broker, relay))!.id;
    // As a profile paired with a public relay is stored: its name, and no --allow-private.
    const changed = await broker.request('PATCH', `/v1/providers/${providerId}`, {
      settings: { url: `https://${NAME}:${port}`, allowPrivate: false },
    });
    assert.equal(changed.status, 200, await changed.text());
    const route = (await (await broker.request('POST', '/v1/routes', { providerId })).json()) as {
      id: string;
    };
    assert.equal((await broker.request('POST', `/v1/routes/${route.id}/enable`)).status, 200);
  });
  after(async () => {
    await broker.stop();
    broker.home.cleanup();
    await relay.close();
    cert.remove();
    rmSync(dnsDir, { recursive: true, force: true });
  });

  it('a name that now resolves to this machine gets no delivery, no event stream and no credential', async () => {
    const callsBefore = relay.calls.length;
    assert.equal((await broker.request('POST', `/v1/providers/${providerId}/enable`)).status, 200);
    await waitForLog(broker.home, `relay: provider ${providerId}: event stream address_not_allowed`);
    const created = await broker.request('POST', '/v1/notifications', {
      title: 'Secret plans',
      message: 'm',
    });
    const { id } = (await created.json()) as { id: string };
    const provider = await waitFor(async () => {
      const view = (await (await broker.request('GET', `/v1/providers/${providerId}`)).json()) as {
        lastResult: { outcome: string; reason?: string } | null;
      };
      return view.lastResult?.reason === 'address_not_allowed' && view;
    }, 'the refused delivery');
    assert.equal(provider.lastResult?.outcome, 'reject');
    const status = await runNotify(['relay', 'status', '--json'], { env: broker.home.env });
    assert.equal(states(status)[0]?.['state'], 'unreachable');
    assert.deepEqual(relay.calls.slice(callsBefore), [], 'the relay name pointing inward was connected');
    assert.equal(relay.notifications.has(id), false);
  });

  it('with --allow-private remembered, the same name is reached, at the address checked and with its certificate', async () => {
    const changed = await broker.request('PATCH', `/v1/providers/${providerId}`, {
      settings: { allowPrivate: true },
    });
    assert.equal(changed.status, 200);
    await waitFor(() => relay.openStreams() === 1, 'the event stream');
    const created = await broker.request('POST', '/v1/notifications', { title: 'Allowed', message: 'm' });
    const { id } = (await created.json()) as { id: string };
    await waitFor(() => relay.notifications.has(id), 'the delivery');
    const put = relay.calls.find((call) => call.path === `/v1/notifications/${id}`);
    assert.equal(put?.headers.host, `${NAME}:${port}`);
  });
});
