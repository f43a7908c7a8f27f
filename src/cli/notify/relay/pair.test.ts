/**
 * `notify relay pair` run in this process (the compiled module, which mutation testing reaches; the
 * bundle's own tests are test/relay/pair*.test.ts) against the real notifyd and a local relay that
 * speaks docs/relay-protocol.md and answers as scripted: what the person reads, the exit code, and
 * what the broker keeps afterwards.
 */
import assert from 'node:assert/strict';
import dnsPromises from 'node:dns/promises';
import { syncBuiltinESMExports } from 'node:module';
import { hostname } from 'node:os';
import { after, describe, it, type TestContext } from 'node:test';
import { useBroker, type BrokerProcess } from '../../../../test/support/broker-process.js';
import {
  realDelay,
  runRelayInProcess,
  startRelayCommand,
  until,
  type RelayRun,
} from '../../../../test/support/relay-in-process.js';
import {
  PAIRING_ENDINGS,
  startTestRelay,
  type PollStep,
  type TestRelay,
  type TestRelayOptions,
} from '../../../../test/support/test-relay.js';

interface ProviderView {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, boolean>;
}

async function profileOf(broker: BrokerProcess, relay: { url: string }): Promise<ProviderView | undefined> {
  const providers = (await (await broker.request('GET', '/v1/providers')).json()) as ProviderView[];
  return providers.find((provider) => provider.kind === 'relay' && provider.settings['url'] === relay.url);
}

function states(run: RelayRun): Record<string, unknown>[] {
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function polls(relay: TestRelay): number {
  return relay.calls.filter((call) => call.path.endsWith('/poll')).length;
}

function assertNoCredential(run: RelayRun, relay: TestRelay): void {
  for (const credential of relay.credentials)
    assert.ok(!`${run.stdout}${run.stderr}`.includes(credential), 'a credential was printed');
}

const WAITING = 'Waiting for approval: 10:00 left (Ctrl+C cancels).\n';
const EXPIRED = 'The pairing code expired before it was approved; run notify relay pair again.';

/**
 * notify's waits on a mocked clock: every setTimeout it schedules is recorded with its delay, so a test
 * moves the clock only once notify waits, and by exactly the wait the protocol asks for; a wait of
 * another length is never found.
 */
class MockedWaits {
  readonly #delays: number[] = [];
  #seen = 0;

  constructor(
    private readonly t: TestContext,
    private readonly relay: TestRelay,
    apis: ('setInterval' | 'Date')[] = [],
  ) {
    t.mock.timers.enable({ apis: ['setTimeout', ...apis], now: Date.now() });
    const mocked = globalThis.setTimeout;
    // Restored with the mock when the test ends.
    globalThis.setTimeout = ((handler: () => void, ms?: number) => {
      this.#delays.push(ms ?? 0);
      return mocked(handler, ms);
    }) as typeof setTimeout;
  }

  /** Waits until notify waits `ms`, moves the clock by as much, and waits for the request to `path`. */
  async next(path: RegExp, ms: number): Promise<void> {
    const count = () => this.relay.calls.filter((call) => path.test(call.path)).length;
    const before = count();
    await until(() => this.#delays.indexOf(ms, this.#seen) >= 0, `a wait of ${ms} ms`, 3000);
    this.#seen = this.#delays.indexOf(ms, this.#seen) + 1;
    this.t.mock.timers.tick(ms);
    await until(() => count() > before, `a request after ${ms} ms`);
  }
}

describe('notify relay pair (in process)', () => {
  const broker = useBroker();
  const relays: TestRelay[] = [];
  after(() => Promise.all(relays.map((relay) => relay.close())));
  async function relay(options: TestRelayOptions = {}): Promise<TestRelay> {
    const started = await startTestRelay(options);
    relays.push(started);
    return started;
  }
  function pair(test: { url: string }, ...args: string[]): Promise<RelayRun> {
    return runRelayInProcess(['pair', '--url', test.url, '--allow-private', ...args], broker.home.env);
  }

  it('shows the page and the code, checks the credential, saves a disabled profile and says how to enable it', async () => {
    const test = await relay({ name: "Ada's relay" });
    const result = await pair(test);
    assert.equal(result.code, 0, result.stderr);
    const profile = (await profileOf(broker, test))!;
    assert.equal(
      result.stdout,
      [
        `To pair this machine with "Ada's relay", open this page and approve:`,
        `  ${test.url}/pair?code=WDJB-MJHT`,
        `Code: WDJB-MJHT (check that the page shows it, or enter it at ${test.url}/pair)`,
        `Paired with "Ada's relay" as installation "test-laptop" (${test.installationId}), approved by ada.`,
        `Saved the new relay profile "Ada's relay" (${profile.id}, disabled).`,
        '',
      ].join('\n'),
    );
    assert.equal(
      result.stderr,
      [
        'Waiting for approval: 10:00 left (Ctrl+C cancels).',
        `Hint: nothing is sent to the relay until you enable the profile and a route to it: notifyctl providers enable ${profile.id}; notifyctl routes add --provider ${profile.id}; notifyctl routes enable <route-id>.`,
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      { name: profile.name, enabled: profile.enabled, settings: profile.settings, secrets: profile.secrets },
      {
        name: "Ada's relay",
        enabled: false,
        settings: { url: test.url, allowPrivate: true },
        secrets: { credential: true },
      },
    );
    const check = test.calls.find((call) => call.path === '/v1/installation');
    assert.equal(check?.headers.authorization, `Bearer ${test.credentials[0]}`);
    const poll = test.calls.find((call) => call.path.endsWith('/poll'));
    assert.match(poll!.headers.authorization!, /^Bearer nrp_/);
    const created = test.calls.find((call) => call.path === '/v1/pairings');
    const wellKnown = test.calls.find((call) => call.path === '/.well-known/notify-relay');
    assert.deepEqual(
      [created!.headers.authorization, wellKnown!.headers.authorization],
      [undefined, undefined],
    );
    assert.deepEqual(JSON.parse(created!.body), {
      sender_name: [...hostname()].slice(0, 100).join(''),
      client: 'notify/0.1.0',
    });
    assertNoCredential(result, test);
  });

  it('updates the profile of the same URL (same id, new credential) and renames it only with --name', async () => {
    const test = await relay({ name: 'First name' });
    assert.equal((await pair(test)).code, 0);
    const first = (await profileOf(broker, test))!;
    // Enabled by the person in between: pairing again keeps it enabled and says so.
    assert.equal((await broker.request('POST', `/v1/providers/${first.id}/enable`)).status, 200);
    test.setPolls(['approved']);
    const again = await pair(test, '--sender-name', 'desk');
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`\nUpdated the relay profile "First name" \\(${first.id}, enabled\\)\\.\n$`),
    );
    assert.doesNotMatch(again.stderr, /Hint/);
    assert.equal((await profileOf(broker, test))?.id, first.id);
    test.setPolls(['approved']);
    const renamed = await pair(test, '--name', '  Phone  ', '--json');
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.deepEqual(states(renamed).at(-1)?.['created'], false);
    assert.equal((await profileOf(broker, test))?.name, 'Phone');
    // The broker now holds the last credential: its connection check succeeds with it.
    const connection = await broker.request('GET', `/v1/providers/${first.id}/connection`);
    assert.equal(((await connection.json()) as { state: string }).state, 'connected');
  });

  it('keeps the name given with --name when the machine pairs again without one', async () => {
    const test = await relay({ name: 'Relay at home' });
    assert.equal((await pair(test, '--name', 'Phone')).code, 0);
    const named = (await profileOf(broker, test))!;
    assert.equal(named.name, 'Phone');
    // The credential was revoked on the relay, say: pairing again replaces it and nothing else.
    test.setPolls(['approved']);
    const again = await pair(test);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      new RegExp(`\nUpdated the relay profile "Phone" \\(${named.id}, disabled\\)\\.\n$`),
    );
    assert.equal((await profileOf(broker, test))?.name, 'Phone');
  });

  it('leaves the approver out when the relay names none', async () => {
    const options: TestRelayOptions = { name: 'Plain' };
    const test = await relay(options);
    options.installationOverride = { id: test.installationId, name: 'desk' };
    const result = await pair(test);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stdout.includes(`\nPaired with "Plain" as installation "desk" (${test.installationId}).\n`),
      result.stdout,
    );
  });

  it('names the profile after the relay, cut to 100 characters, and sends --sender-name', async () => {
    const test = await relay({ name: `  ${'R'.repeat(99)}é${'x'.repeat(20)}` });
    const result = await pair(test, '--sender-name', 'build-box');
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await profileOf(broker, test))?.name, `${'R'.repeat(99)}é`);
    const created = test.calls.find((call) => call.path === '/v1/pairings');
    assert.deepEqual(JSON.parse(created!.body), { sender_name: 'build-box', client: 'notify/0.1.0' });
  });

  it('takes a name of exactly 100 characters and refuses 101, an empty one, and an empty sender name', async () => {
    const test = await relay();
    const hundred = await pair(test, '--name', 'n'.repeat(100), '--sender-name', 's'.repeat(100));
    assert.equal(hundred.code, 0, hundred.stderr);
    assert.equal((await profileOf(broker, test))?.name, 'n'.repeat(100));
    const before = test.calls.length;
    for (const [flag, value] of [
      ['--name', 'n'.repeat(101)],
      ['--name', '   '],
      ['--sender-name', 's'.repeat(101)],
      ['--sender-name', ''],
    ] as const) {
      const refused = await pair(test, flag, value);
      assert.deepEqual(refused, { code: 1, stdout: '', stderr: `${flag} must be 1-100 characters.\n` });
    }
    assert.equal(test.calls.length, before, 'the relay was asked');
  });

  it('counts names in characters as the broker and the relay do (an emoji is one): too long is refused before the relay is asked', async () => {
    // A relay named in emoji: its name is cut to what the broker keeps, never mid-emoji.
    const test = await relay({ name: '🛰'.repeat(140) });
    for (const [flag, value] of [
      ['--name', '📱'.repeat(101)],
      ['--sender-name', '📱'.repeat(101)],
    ] as const) {
      const refused = await pair(test, flag, value);
      assert.deepEqual(refused, { code: 1, stdout: '', stderr: `${flag} must be 1-100 characters.\n` }, flag);
    }
    assert.equal(test.calls.length, 0, 'the relay was asked');
    const fits = await pair(test, '--sender-name', '📱'.repeat(100));
    assert.equal(fits.code, 0, fits.stderr);
    assert.equal((await profileOf(broker, test))?.name, '🛰'.repeat(100));
    const created = test.calls.find((call) => call.path === '/v1/pairings');
    assert.equal(JSON.parse(created!.body).sender_name, '📱'.repeat(100));
  });

  it('writes one compact JSON object per state transition with --json', async () => {
    const test = await relay({ polls: ['pending', 'drop', 'http500', 'pending', 'approved'] });
    const result = await pair(test, '--json');
    assert.equal(result.code, 0, result.stderr);
    const all = states(result);
    assert.deepEqual(
      all.map((state) => state['state']),
      ['awaiting_approval', 'unreachable', 'unreachable', 'awaiting_approval', 'approved', 'saved'],
    );
    const expiresAt = Date.parse(all[0]!['expires_at'] as string);
    assert.ok(Math.abs(expiresAt - (Date.now() + 600_000)) < 60_000, `expires_at ${all[0]!['expires_at']}`);
    assert.deepEqual(all[0], {
      state: 'awaiting_approval',
      relay: { name: 'Test relay', url: test.url },
      user_code: 'WDJB-MJHT',
      verification_uri: `${test.url}/pair`,
      verification_uri_complete: `${test.url}/pair?code=WDJB-MJHT`,
      expires_at: all[0]!['expires_at'],
      interval: 0.05,
    });
    assert.deepEqual(all[1], { state: 'unreachable', failures: 1, error: 'socket hang up' });
    assert.match(all[2]!['error'] as string, /answered 500 Internal Server Error \(server_error\)$/);
    assert.equal(all[2]!['failures'], 2);
    assert.deepEqual(all[3], { state: 'awaiting_approval', user_code: 'WDJB-MJHT' });
    assert.deepEqual(all[4], {
      state: 'approved',
      installation: { id: test.installationId, name: 'test-laptop' },
    });
    const profile = await profileOf(broker, test);
    assert.deepEqual(all[5], {
      state: 'saved',
      created: true,
      profile: { id: profile!.id, name: 'Test relay', url: test.url, enabled: false },
      installation: { id: test.installationId, name: 'test-laptop', owner: 'ada' },
    });
    // The person is told nothing else on stdout; the retries are notes only without --json.
    assert.doesNotMatch(result.stderr, /trying again/);
    assertNoCredential(result, test);
  });

  it('omits verification_uri_complete when the relay sends none and shows the plain page', async () => {
    const test = await relay({ completeUri: false });
    const result = await pair(test, '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!('verification_uri_complete' in states(result)[0]!));
    const plain = await pair(test);
    assert.match(plain.stdout, new RegExp(`^  ${test.url}/pair\n`, 'm'));
  });

  for (const failures of [1, 2, 3, 4]) {
    it(`rides out ${failures} transient failure(s) in a row, each told as a note`, async () => {
      const steps = Array.from({ length: failures }, (_, index): PollStep =>
        index % 2 === 0 ? 'drop' : 'http500',
      );
      const test = await relay({ polls: ['pending', ...steps, 'approved'] });
      const result = await pair(test);
      assert.equal(result.code, 0, result.stderr);
      const notes = result.stderr.match(/^The relay could not be reached \(.*\); trying again\.$/gm) ?? [];
      assert.equal(notes.length, failures);
      assert.equal(notes[0], 'The relay could not be reached (socket hang up); trying again.');
      assert.ok(await profileOf(broker, test));
    });
  }

  it('gives up at the fifth transient failure in a row and saves nothing', async () => {
    const test = await relay({
      polls: ['pending', 'drop', 'http500', 'drop', 'http500', 'drop', 'approved'],
    });
    const result = await pair(test);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr.split('\n').at(-2),
      'Gave up: the relay could not be reached 5 times in a row (last: socket hang up); nothing was saved.',
    );
    assert.equal(polls(test), 6);
    assert.equal(await profileOf(broker, test), undefined);
  });

  it('counts failures in a row only: an answer in between starts the count again', async () => {
    const test = await relay({
      polls: ['drop', 'drop', 'drop', 'drop', 'pending', 'drop', 'drop', 'drop', 'drop', 'approved'],
    });
    const result = await pair(test, '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      states(result)
        .filter((state) => state['state'] === 'unreachable')
        .map((state) => state['failures']),
      [1, 2, 3, 4, 1, 2, 3, 4],
    );
  });

  for (const ending of PAIRING_ENDINGS) {
    it(`ends on ${ending.step} in the middle of polling: exit 1, the reason, nothing saved`, async () => {
      const test = await relay({ polls: ['pending', 'pending', ending.step] });
      const result = await pair(test, '--json');
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `${WAITING}${ending.message}\n`);
      assert.deepEqual(states(result).at(-1), { state: ending.state });
      assert.equal(polls(test), 3);
      assert.equal(await profileOf(broker, test), undefined);
    });
  }

  it('ends when the code runs out while the relay still says pending', async () => {
    const test = await relay({ polls: ['pending'], expiresIn: 0.3, interval: 0.1 });
    const result = await pair(test, '--json');
    assert.equal(result.code, 1);
    assert.equal(result.stderr.split('\n').at(-2), EXPIRED);
    assert.deepEqual(states(result).at(-1), { state: 'expired' });
    // Polls at 0.1, 0.2, 0.3 and one interval past the end at most; never on and on.
    assert.ok(polls(test) >= 2 && polls(test) <= 4, `${polls(test)} polls`);
  });

  it('refuses a poll answer it does not understand, naming what the relay said', async () => {
    const test = await relay({ polls: ['pending', 'http404'] });
    const result = await pair(test);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^The relay answered the poll in a way Notify does not understand: POST \/v1\/pairings\/p_[0-9a-f]+\/poll answered 404 Not Found \(not_found\)\.\n$/m,
    );
    const odd = await relay({ polls: ['pending', 'odd'] });
    const strange = await pair(odd);
    assert.match(
      strange.stderr,
      /^The relay answered the poll in a way Notify does not understand: POST \/v1\/pairings\/p_[0-9a-f]+\/poll answered 200 OK\.\n$/m,
    );
  });

  const badDocuments: { name: string; options: TestRelayOptions; message: (url: string) => string }[] = [
    {
      name: 'a 404',
      options: { wellKnown: 404 },
      message: (url) =>
        `${url} is not a Notify relay: GET /.well-known/notify-relay answered 404 Not Found (not_found).`,
    },
    {
      name: 'another service',
      options: { wellKnown: { service: 'something-else', name: 'x', api_versions: ['v1'] } },
      message: (url) =>
        `${url} is not a Notify relay: GET /.well-known/notify-relay did not return a notify-relay document (service, name, api_versions).`,
    },
    {
      name: 'no v1',
      options: { wellKnown: { service: 'notify-relay', name: 'x', api_versions: ['v2', 'v3'] } },
      message: (url) =>
        `The relay at ${url} speaks API v2, v3, and this notify speaks v1; update the one that is older.`,
    },
    {
      name: 'no version at all',
      options: { wellKnown: { service: 'notify-relay', name: 'x', api_versions: [] } },
      message: (url) =>
        `The relay at ${url} speaks API (none), and this notify speaks v1; update the one that is older.`,
    },
  ];
  for (const bad of badDocuments) {
    it(`refuses a relay whose well-known document is ${bad.name}, before any pairing`, async () => {
      const test = await relay(bad.options);
      const result = await pair(test);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: `${bad.message(test.url)}\n` });
      assert.equal(test.calls.filter((call) => call.path === '/v1/pairings').length, 0);
    });
  }

  it('says when the relay cannot be reached at all, naming it', async () => {
    const test = await relay();
    await test.close();
    const result = await pair(test);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^Could not reach the relay at ${test.url}: .*ECONNREFUSED`));
  });

  it('says when the relay refuses a new pairing for now, and when to try again', async () => {
    const later = await relay({ pairingStatus: 429 });
    assert.deepEqual(await pair(later), {
      code: 1,
      stdout: '',
      stderr:
        'The relay refused a new pairing for now (POST /v1/pairings answered 429 Too Many Requests (rate_limited)); try again later.\n',
    });
    const soon = await relay({ pairingStatus: 429, retryAfter: '42' });
    assert.match((await pair(soon)).stderr, /\(rate_limited\)\); try again in 42 s\.\n$/);
    const broken = await relay({ pairingStatus: 503 });
    assert.equal(
      (await pair(broken)).stderr,
      'The relay did not start a pairing: POST /v1/pairings answered 503 Service Unavailable (rate_limited).\n',
    );
  });

  it('takes a pairing the relay started with 200 OK as it takes one with 201 Created', async () => {
    const test = await relay({ startedStatus: 200 });
    const result = await pair(test);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(await profileOf(broker, test), 'the profile is saved');
  });

  it('refuses a started pairing it cannot read (no poll secret) with a sentence, and saves nothing', async () => {
    const test = await relay({ startedBody: { pairing_id: 'p_1', user_code: 'WDJB-MJHT' } });
    assert.deepEqual(await pair(test), {
      code: 1,
      stdout: '',
      stderr: "The relay's answer to POST /v1/pairings is not a pairing request.\n",
    });
    assert.equal(await profileOf(broker, test), undefined);
  });

  for (const [name, options] of [
    ['the complete one', { verificationOrigin: 'https://relay.example.net' }],
    ['the plain one', { plainVerificationOrigin: 'https://relay.example.net' }],
  ] as const) {
    it(`refuses a verification URL on another origin (${name}) and shows neither it nor the code`, async () => {
      const test = await relay(options);
      const result = await pair(test, '--json');
      assert.deepEqual(result, {
        code: 1,
        stdout: `${JSON.stringify({ state: 'failed', error: result.stderr.trim() })}\n`,
        stderr: `The relay sent a verification URL on another origin than ${test.url}; not showing it, since approving there could hand this machine to someone else.\n`,
      });
      assert.equal(polls(test), 0);
      assert.equal(await profileOf(broker, test), undefined);
    });
  }

  it('shows what the relay names without its escape sequences', async () => {
    const evil = 'Evil\x1b]52;c;Y3VybA==\x07\x1b[2J\u202erelay';
    const shown = 'Evil\\x1b]52;c;Y3VybA==\\x07\\x1b[2J\\u202erelay';
    const test = await relay({
      name: evil,
      verificationPath: '/pair\x1b[2J',
      installationName: 'lap\x1b[2Jtop',
    });
    const result = await pair(test, '--json');
    assert.equal(result.code, 0, result.stderr);
    const first = states(result)[0]!;
    assert.equal(first['verification_uri'], `${test.url}/pair\\x1b[2J`);
    assert.equal(first['verification_uri_complete'], `${test.url}/pair\\x1b[2J?code=WDJB-MJHT`);
    const plain = await pair(test);
    assert.ok(plain.stdout.includes(`  ${test.url}/pair\\x1b[2J?code=WDJB-MJHT\n`), plain.stdout);
    assert.ok(plain.stdout.includes(`enter it at ${test.url}/pair\\x1b[2J)\n`), plain.stdout);
    // eslint-disable-next-line no-control-regex -- no control character but the line feed may be printed
    assert.doesNotMatch(plain.stdout, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    assert.ok(plain.stdout.includes(shown));
  });

  it('waits 5 seconds more from a slow_down on, for good', async (t) => {
    const test = await relay({ polls: ['slow_down', 'pending', 'approved'] });
    const waits = new MockedWaits(t, test);
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private', '--json'], broker.home.env);
    await waits.next(/\/poll$/, 50);
    await waits.next(/\/poll$/, 5050);
    await waits.next(/\/poll$/, 5050);
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(states(result)[1], { state: 'slow_down', interval: 5.05 });
    assert.equal(polls(test), 3);
  });

  it('waits as long as a 429 poll answer says in Retry-After', async (t) => {
    const test = await relay({ polls: ['http429', 'approved'], retryAfter: '3' });
    const waits = new MockedWaits(t, test);
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private', '--json'], broker.home.env);
    await waits.next(/\/poll$/, 50);
    await waits.next(/\/poll$/, 3000);
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      states(result).map((state) => state['state']),
      ['awaiting_approval', 'approved', 'saved'],
    );
  });

  it('rides out a failing installation check, waiting a second longer after each failure', async (t) => {
    const test = await relay({ installationFailures: 2 });
    const waits = new MockedWaits(t, test);
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private'], broker.home.env);
    await waits.next(/\/poll$/, 50);
    await waits.next(/\/poll$/, 50);
    await waits.next(/^\/v1\/installation$/, 1000);
    await waits.next(/^\/v1\/installation$/, 2000);
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stderr.match(
        /^The relay could not be reached \(GET \/v1\/installation answered 500 Internal Server Error \(server_error\)\); trying again\.$/gm,
      )?.length,
      2,
    );
    assert.ok(await profileOf(broker, test));
  });

  it('polls until one interval past the expiry, then says the code expired', async (t) => {
    const test = await relay({ polls: ['pending'], expiresIn: 1, interval: 0.25 });
    const waits = new MockedWaits(t, test, ['setInterval', 'Date']);
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private', '--json'], broker.home.env);
    // At 0.25, 0.5, 0.75, 1 s, and once more at 1.25 s: the relay may have approved at the last moment.
    for (let poll = 0; poll < 5; poll++) await waits.next(/\/poll$/, 250);
    const result = await run.done;
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `Waiting for approval: 0:01 left (Ctrl+C cancels).\nWaiting for approval: 0:00 left (Ctrl+C cancels).\n${EXPIRED}\n`,
    );
    assert.deepEqual(states(result).at(-1), { state: 'expired' });
    assert.equal(polls(test), 5);
  });

  it('on a terminal, wipes the countdown when the pairing ends, saved or not, and stops it', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    for (const steps of [['approved'], ['pending', 'rejected']] as PollStep[][]) {
      const test = await relay({ polls: steps });
      const run = startRelayCommand(['pair', '--url', test.url, '--allow-private'], broker.home.env, true);
      const result = await run.done;
      assert.equal(result.code, steps.length === 1 ? 0 : 1, result.stderr);
      assert.equal(run.io.rewritten[0], '\r\x1b[KWaiting for approval: 10:00 left (Ctrl+C cancels).');
      assert.equal(run.io.rewritten.at(-1), '\r\x1b[K');
      const shown = run.io.rewritten.length;
      t.mock.timers.tick(3000);
      assert.equal(run.io.rewritten.length, shown, 'the countdown went on');
    }
  });

  it('never takes another kind of provider with the same URL for the relay profile', async () => {
    const test = await relay();
    const webhook = await broker.request('POST', '/v1/providers', {
      kind: 'webhook',
      name: 'Same URL',
      settings: { url: test.url },
    });
    assert.equal(webhook.status, 201, await webhook.clone().text());
    const { id } = (await webhook.json()) as { id: string };
    const result = await pair(test);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Saved the new relay profile "Test relay"/);
    const kept = (await (await broker.request('GET', `/v1/providers/${id}`)).json()) as ProviderView;
    assert.deepEqual([kept.kind, kept.name, kept.settings['url']], ['webhook', 'Same URL', test.url]);
  });

  it('cancels cleanly on Ctrl+C (SIGINT) while polling: exit 1, nothing saved, the handler removed', async () => {
    const test = await relay({ polls: ['pending'] });
    // The signal itself would also reach the test runner's own handlers: only notify's is called.
    const others = process.listeners('SIGINT');
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private', '--json'], broker.home.env);
    await until(() => polls(test) >= 2, 'two polls');
    const added = process.listeners('SIGINT').filter((listener) => !others.includes(listener));
    assert.equal(added.length, 1, 'notify listens for Ctrl+C while it pairs');
    added[0]!('SIGINT');
    const result = await run.done;
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `${WAITING}Pairing cancelled; nothing was saved.\n`);
    assert.deepEqual(states(result).at(-1), { state: 'cancelled' });
    assert.deepEqual(process.listeners('SIGINT'), others);
    const seen = polls(test);
    await realDelay(200);
    assert.equal(polls(test), seen, 'it went on polling after Ctrl+C');
    assert.equal(await profileOf(broker, test), undefined);
  });

  it('applies the URL rules before any request and refuses stray arguments and options', async () => {
    const test = await relay();
    const port = new URL(test.url).port;
    const hint = 'pass --allow-private to pair with a relay on this machine or on a private network.';
    const cases: [string[], string][] = [
      [['--url', `http://127.0.0.1:${port}`], `--url http://127.0.0.1:${port} is on this machine; ${hint}`],
      [['--url', `http://localhost:${port}`], `--url http://localhost:${port} is on this machine; ${hint}`],
      [
        ['--url', 'http://relay.example.com'],
        '--url must use https: http is allowed only for localhost, and relay.example.com is not.',
      ],
      [[], 'relay pair requires --url <url>. Usage: notify relay pair --url https://relay.example.com.'],
      [['--url', test.url, 'extra'], "unexpected argument 'extra' for relay pair. Run 'notify help relay'."],
      [
        ['--url', test.url, '--verbose'],
        "unknown option '--verbose' for relay pair. Run 'notify help relay'.",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runRelayInProcess(['pair', ...args], broker.home.env);
      assert.deepEqual(result, { code: 1, stdout: '', stderr: `${message}\n` }, args.join(' '));
    }
    const unresolvable = await runRelayInProcess(
      ['pair', '--url', 'https://relay.invalid', '--allow-private'],
      broker.home.env,
    );
    assert.match(
      unresolvable.stderr,
      /^Could not resolve relay\.invalid \((ENOTFOUND|EAI_AGAIN)\); check the --url\.\n$/,
    );
    assert.deepEqual(test.calls, [], 'the relay was asked');
    const viaName = await runRelayInProcess(
      ['pair', '--url', `http://localhost:${port}`, '--allow-private'],
      broker.home.env,
    );
    assert.equal(viaName.code, 0, viaName.stderr);
  });

  it('refuses a name that resolves to this machine or a private network without --allow-private, asking it nothing', async () => {
    // The name looks public; only its addresses say where the credential would go.
    const answers: Record<string, string> = {
      'relay.example.com': '127.0.0.1',
      'relay.example.net': '192.168.1.20',
    };
    const real = dnsPromises.lookup;
    const stand = async (host: string, options: object) =>
      answers[host] === undefined ? real(host, options) : [{ address: answers[host], family: 4 }];
    (dnsPromises as { lookup: unknown }).lookup = stand;
    syncBuiltinESMExports();
    try {
      const hint = 'pass --allow-private to pair with a relay on this machine or on a private network.';
      const cases: [string, string][] = [
        ['relay.example.com', 'resolves to 127.0.0.1, this machine (a loopback address)'],
        ['relay.example.net', 'resolves to 192.168.1.20, a private or reserved address'],
      ];
      for (const [host, why] of cases) {
        const result = await runRelayInProcess(['pair', '--url', `https://${host}`], broker.home.env);
        assert.deepEqual(result, { code: 1, stdout: '', stderr: `${host} ${why}; ${hint}\n` }, host);
      }
    } finally {
      (dnsPromises as { lookup: unknown }).lookup = real;
      syncBuiltinESMExports();
    }
  });

  it('refuses another installation than the one approved and saves nothing', async () => {
    const test = await relay({ installationOverride: { id: 'i_someone_else', name: 'x' } });
    const result = await pair(test);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr.split('\n').at(-2),
      'The relay approved the pairing but does not confirm the installation (GET /v1/installation answered 200 OK); nothing was saved. Pair again.',
    );
    assert.equal(await profileOf(broker, test), undefined);
    assertNoCredential(result, test);
  });

  it('says the relay approved but the profile could not be saved when it was deleted from the broker meanwhile', async () => {
    const test = await relay();
    assert.equal((await pair(test)).code, 0);
    const profile = (await profileOf(broker, test))!;
    test.setPolls(['pending']);
    const run = startRelayCommand(['pair', '--url', test.url, '--allow-private'], broker.home.env);
    await until(() => run.io.stdout.includes('Code: WDJB-MJHT'), 'the code');
    assert.equal((await broker.request('DELETE', `/v1/providers/${profile.id}`)).status, 204);
    test.setPolls(['approved']);
    const result = await run.done;
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /\nThe relay approved this machine, but Notify could not save the relay profile \(.*404.*\)\. Revoke the new installation on the relay's page and pair again once Notify runs\.\n$/,
    );
    assert.doesNotMatch(result.stdout, /Saved|Updated/);
  });

  it('asks for the broker first: unreachable, it says so with the hint and never asks the relay', async () => {
    const test = await relay();
    const result = await runRelayInProcess(['pair', '--url', test.url, '--allow-private'], {
      ...broker.home.env,
      NOTIFY_PORT: '1',
      NOTIFY_TOKEN: 'x',
    });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      [
        'Could not reach Notify at http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
        'Is the tray app running?',
        "Hint: start the broker with 'notifyd' (it runs in the foreground; keep that terminal open), or let it start at login with 'notifyctl service install'; then try again.",
        '',
      ].join('\n'),
    );
    assert.deepEqual(test.calls, []);
  });
});

describe('notify relay without a known subcommand', () => {
  it('names the subcommands', async () => {
    assert.deepEqual(await runRelayInProcess([], {}), {
      code: 1,
      stdout: '',
      stderr: "relay requires a subcommand: pair or status. Run 'notify help relay'.\n",
    });
    assert.deepEqual(await runRelayInProcess(['unpair'], {}), {
      code: 1,
      stdout: '',
      stderr: "unknown relay subcommand 'unpair'; use pair or status. Run 'notify help relay'.\n",
    });
  });
});
