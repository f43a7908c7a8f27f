/**
 * `notify relay status` run in this process (the compiled module, which mutation testing reaches; the
 * bundle's own test is test/relay/status.test.ts) against the real notifyd, whose relay profiles hold
 * credentials of local relays that speak docs/relay-protocol.md.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTempHome, useBroker, type BrokerProcess } from '../../../../test/support/broker-process.js';
import { runRelayInProcess } from '../../../../test/support/relay-in-process.js';
import { startTestRelay, type TestRelay } from '../../../../test/support/test-relay.js';

interface Connection {
  state: string;
  summary: string;
}

/** A relay profile as `notify relay pair` leaves it, its credential approved by `relay`. */
async function pairedProfile(broker: BrokerProcess, relay: TestRelay, name: string): Promise<string> {
  const created = (await (
    await fetch(`${relay.url}/v1/pairings`, { method: 'POST', body: '{}' })
  ).json()) as { pairing_id: string; poll_secret: string };
  const polled = await fetch(`${relay.url}/v1/pairings/${created.pairing_id}/poll`, {
    method: 'POST',
    headers: { authorization: `Bearer ${created.poll_secret}` },
  });
  const { credential } = (await polled.json()) as { credential: string };
  const saved = await broker.request('POST', '/v1/providers', {
    kind: 'relay',
    name,
    settings: { url: relay.url, credential, allowPrivate: true },
  });
  assert.equal(saved.status, 201, await saved.clone().text());
  return ((await saved.json()) as { id: string }).id;
}

async function connectionOf(broker: BrokerProcess, id: string): Promise<Connection> {
  return (await (await broker.request('GET', `/v1/providers/${id}/connection`)).json()) as Connection;
}

describe('notify relay status (in process)', () => {
  const broker = useBroker();
  const relays: TestRelay[] = [];
  after(() => Promise.all(relays.map((relay) => relay.close())));
  const status = (...args: string[]) => runRelayInProcess(['status', ...args], broker.home.env);

  it('says there are none, with a hint, and exits 0; --json prints nothing', async () => {
    assert.deepEqual(await status(), {
      code: 0,
      stdout: '(no relay profiles)\n',
      stderr: 'Hint: pair with a relay first: notify relay pair --url https://relay.example.com\n',
    });
    assert.deepEqual(await status('--json'), { code: 0, stdout: '', stderr: '' });
  });

  it('shows each profile as the broker finds it, and exits 0 only when every one is connected', async () => {
    const good = await startTestRelay({ installationName: 'desk', polls: ['approved'] });
    const gone = await startTestRelay({ installationName: 'old', polls: ['approved'] });
    relays.push(good, gone);
    const goodId = await pairedProfile(broker, good, 'Home');
    assert.equal((await broker.request('POST', `/v1/providers/${goodId}/enable`)).status, 200);
    const allFine = await status();
    assert.deepEqual(allFine, {
      code: 0,
      stdout: [
        `Home (${good.url})`,
        '  connection:   connected',
        `  installation: desk (${good.installationId})`,
        `  profile:      enabled (${goodId})`,
        '',
      ].join('\n'),
      stderr: '',
    });

    const goneId = await pairedProfile(broker, gone, 'Old\x1b[2J relay');
    gone.revoke();
    const revoked = await connectionOf(broker, goneId);
    assert.equal(revoked.state, 'revoked');
    const text = await status();
    assert.equal(text.code, 1);
    assert.ok(
      text.stdout.endsWith(
        [
          `Old\\x1b[2J relay (${gone.url})`,
          `  connection:   revoked: ${revoked.summary}`,
          '  installation: unknown',
          `  profile:      disabled (${goneId})`,
          '',
        ].join('\n'),
      ),
      text.stdout,
    );
    assert.equal(text.stderr, '1 of 2 relay profile(s) not connected.\n');

    const json = await status('--json');
    assert.equal(json.code, 1);
    assert.deepEqual(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
      [
        {
          id: goodId,
          name: 'Home',
          url: good.url,
          state: 'connected',
          installation: { id: good.installationId, name: 'desk' },
          disabled: false,
        },
        {
          id: goneId,
          name: 'Old\x1b[2J relay',
          url: gone.url,
          state: 'revoked',
          installation: null,
          disabled: true,
          summary: revoked.summary,
        },
      ],
    );
    assert.equal(json.stderr, '1 of 2 relay profile(s) not connected.\n');
  });

  it('never calls connected a relay that answers the installation check with something else than an installation', async () => {
    const odd = await startTestRelay({ polls: ['approved'], installationOverride: { status: 'ok' } });
    relays.push(odd);
    const oddId = await pairedProfile(broker, odd, 'Odd');
    const connection = await connectionOf(broker, oddId);
    assert.equal(connection.state, 'failing');
    const json = await status('--json');
    assert.equal(json.code, 1);
    const shown = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; state: string; installation: unknown })
      .find((profile) => profile.id === oddId);
    assert.deepEqual([shown?.state, shown?.installation], [connection.state, null]);
  });

  it('refuses unknown options and arguments with the command named', async () => {
    assert.deepEqual(await status('--verbose'), {
      code: 1,
      stdout: '',
      stderr: "unknown option '--verbose' for relay status. Run 'notify help relay'.\n",
    });
    assert.deepEqual(await status('all'), {
      code: 1,
      stdout: '',
      stderr: "unexpected argument 'all' for relay status. Run 'notify help relay'.\n",
    });
  });

  it('warns when it has no token and still asks, so the broker says why it refuses', async () => {
    const empty = createTempHome();
    try {
      const result = await runRelayInProcess(['status'], { ...empty.env, NOTIFY_PORT: String(broker.port) });
      assert.equal(result.code, 1);
      assert.ok(
        result.stderr.startsWith(
          `Warning: no token found. Pass --token, set NOTIFY_TOKEN, or start Notify once so that it writes authToken to ${empty.configFile}. Sending the request without a token.\nError 401 `,
        ),
        result.stderr,
      );
    } finally {
      empty.cleanup();
    }
  });

  it('says which token the broker refused, and how to find the right one', async () => {
    const refused = await runRelayInProcess(['status'], { ...broker.home.env, NOTIFY_TOKEN: 'not-it' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^Error 401 /);
    assert.match(refused.stderr, /\nHint: the token in NOTIFY_TOKEN is not the broker's\./);
  });
});
