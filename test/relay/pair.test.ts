import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { after, describe, it } from 'node:test';
import { useBroker } from '../support/broker-process.js';
import { NOTIFY } from '../support/notify-cli.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';
import {
  PAIRING_ENDINGS,
  startTestRelay,
  type PollStep,
  type TestRelay,
  type TestRelayOptions,
} from '../support/test-relay.js';
import { assertNoCredential, notify, pair, profileOf, states } from './relay-cli.js';

describe('notify relay pair', () => {
  const broker = useBroker();
  const relays: TestRelay[] = [];
  after(() => Promise.all(relays.map((relay) => relay.close())));
  async function relay(options: TestRelayOptions = {}): Promise<TestRelay> {
    const started = await startTestRelay(options);
    relays.push(started);
    return started;
  }

  it('shows the code and the page, counts down on stderr, verifies and saves a disabled profile', async () => {
    const test = await relay({ name: "Ada's relay", polls: ['pending', 'pending', 'approved'] });
    const result = await pair(broker, test);
    assert.equal(result.code, 0, result.stderr);
    const profile = await profileOf(broker, test);
    assert.ok(profile);
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
    assert.match(result.stderr, /^Waiting for approval: 10:00 left \(Ctrl\+C cancels\)\.$/m);
    assert.match(result.stderr, new RegExp(`^Hint: .*notifyctl providers enable ${profile.id}`, 'm'));
    assert.deepEqual(
      { name: profile.name, enabled: profile.enabled, secrets: profile.secrets },
      { name: "Ada's relay", enabled: false, secrets: { credential: true } },
    );
    // The credential was checked with the relay before it was saved, and never shown.
    const check = test.calls.find((call) => call.path === '/v1/installation');
    assert.equal(check?.headers.authorization, `Bearer ${test.credentials[0]}`);
    assertNoCredential(result, test);
    const created = test.calls.find((call) => call.path === '/v1/pairings');
    assert.equal(JSON.parse(created!.body).sender_name, hostname().slice(0, 100));
  });

  it('updates the profile with the same URL: new credential, same id, the name only when given', async () => {
    const test = await relay({ name: 'First name' });
    assert.equal((await pair(broker, test)).code, 0);
    const first = await profileOf(broker, test);
    test.setPolls(['approved']);
    const again = await pair(broker, test, '--sender-name', 'desk');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Updated the relay profile "First name"/);
    const second = await profileOf(broker, test);
    assert.equal(second?.id, first?.id);
    test.setPolls(['approved']);
    const renamed = await pair(broker, test, '--name', 'Phone');
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.equal((await profileOf(broker, test))?.name, 'Phone');
    // The credential of the last pairing is the one the broker now uses.
    const status = await notify(broker, 'relay', 'status', '--json');
    const line = states(status).find((entry) => entry['id'] === first?.id);
    assert.equal(line?.['state'], 'connected');
  });

  it('names the profile after the relay, cut to 100 characters, and takes --sender-name', async () => {
    const long = 'R'.repeat(120);
    const test = await relay({ name: long });
    const result = await pair(broker, test, '--sender-name', 'build-box');
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await profileOf(broker, test))?.name, 'R'.repeat(100));
    const created = test.calls.find((call) => call.path === '/v1/pairings');
    assert.deepEqual(JSON.parse(created!.body), { sender_name: 'build-box', client: 'notify/0.1.0' });
  });

  it('writes one compact JSON object per state transition with --json', async () => {
    const test = await relay({ polls: ['pending', 'drop', 'http500', 'pending', 'approved'] });
    const result = await pair(broker, test, '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.split('\n').every((line) => !line.startsWith(' ')));
    const all = states(result);
    assert.deepEqual(
      all.map((state) => state['state']),
      ['awaiting_approval', 'unreachable', 'unreachable', 'awaiting_approval', 'approved', 'saved'],
    );
    assert.deepEqual(all[0], {
      state: 'awaiting_approval',
      relay: { name: 'Test relay', url: test.url },
      user_code: 'WDJB-MJHT',
      verification_uri: `${test.url}/pair`,
      verification_uri_complete: `${test.url}/pair?code=WDJB-MJHT`,
      expires_at: all[0]!['expires_at'],
      interval: 0.05,
    });
    assert.deepEqual([all[1]!['failures'], all[2]!['failures']], [1, 2]);
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
    assertNoCredential(result, test);
  });

  it('adds 5 seconds to the interval from a slow_down on', async () => {
    const test = await relay({ polls: ['slow_down', 'pending', 'approved'] });
    const result = await pair(broker, test, '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(states(result)[1], { state: 'slow_down', interval: 5.05 });
    const polls = test.calls.filter((call) => call.path.endsWith('/poll')).map((call) => call.at);
    assert.equal(polls.length, 3);
    assert.ok(polls[1]! - polls[0]! >= 5000, `second poll after ${polls[1]! - polls[0]!} ms`);
    assert.ok(polls[2]! - polls[1]! >= 5000, `third poll after ${polls[2]! - polls[1]!} ms`);
  });

  for (const failures of [1, 2, 3, 4]) {
    it(`rides out ${failures} transient failure(s) in a row`, async () => {
      const steps = Array.from({ length: failures }, (_, index): PollStep =>
        index % 2 === 0 ? 'drop' : 'http500',
      );
      const test = await relay({ polls: ['pending', ...steps, 'approved'] });
      const result = await pair(broker, test);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr.match(/could not be reached .*; trying again\./g)?.length, failures);
      assert.ok(await profileOf(broker, test));
    });
  }

  it('gives up at the fifth transient failure in a row and saves nothing', async () => {
    const test = await relay({
      polls: ['pending', 'drop', 'http500', 'drop', 'http500', 'drop', 'approved'],
    });
    const result = await pair(broker, test);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /Gave up: the relay could not be reached 5 times in a row \(last: socket hang up\); nothing was saved\.\n$/,
    );
    assert.equal(await profileOf(broker, test), undefined);
  });

  for (const ending of PAIRING_ENDINGS) {
    it(`ends on ${ending.step} in the middle of polling, exit 1, nothing saved`, async () => {
      const test = await relay({ polls: ['pending', 'pending', ending.step] });
      const result = await pair(broker, test, '--json');
      assert.equal(result.code, 1);
      assert.equal(result.stderr.split('\n').at(-2), ending.message);
      assert.deepEqual(states(result).at(-1), { state: ending.state });
      assert.equal(await profileOf(broker, test), undefined);
    });
  }

  it('ends when the code runs out while the relay still says pending', async () => {
    const test = await relay({ polls: ['pending'], expiresIn: 0.4 });
    const result = await pair(broker, test);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /The pairing code expired before it was approved; run notify relay pair again\.\n$/,
    );
  });

  const badDocuments: { name: string; options: TestRelayOptions; message: RegExp }[] = [
    {
      name: 'a 404',
      options: { wellKnown: 404 },
      message:
        /is not a Notify relay: GET \/\.well-known\/notify-relay answered 404 Not Found \(not_found\)\.$/,
    },
    {
      name: 'another service',
      options: { wellKnown: { service: 'something-else', name: 'x', api_versions: ['v1'] } },
      message:
        /is not a Notify relay: GET \/\.well-known\/notify-relay did not return a notify-relay document/,
    },
    {
      name: 'no v1',
      options: { wellKnown: { service: 'notify-relay', name: 'x', api_versions: ['v2'] } },
      message: /speaks API v2, and this notify speaks v1; update the one that is older\.$/,
    },
  ];
  for (const bad of badDocuments) {
    it(`refuses a relay whose well-known document is ${bad.name}, before any pairing`, async () => {
      const test = await relay(bad.options);
      const result = await pair(broker, test);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr.trim(), bad.message);
      assert.equal(test.calls.filter((call) => call.path === '/v1/pairings').length, 0);
    });
  }

  it('refuses verification URLs on another origin and shows neither them nor the code', async () => {
    const test = await relay({ verificationOrigin: 'https://relay.example.net' });
    const result = await pair(broker, test);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.ok(!result.stderr.includes('relay.example.net') && !result.stderr.includes('WDJB'));
    assert.match(
      result.stderr,
      /sent a verification URL on another origin than http:\/\/127\.0\.0\.1:\d+; not showing it/,
    );
    assert.equal(test.calls.filter((call) => call.path.endsWith('/poll')).length, 0);
  });

  it('shows what the relay names (relay, page, installation, owner) without its escape sequences, and stores them cleaned', async () => {
    // OSC 52 (a clipboard write), clear screen, BEL, a C1 CSI and a bidi override.
    const evil = 'Evil\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07\x1b[2J\u009b31m\u202erelay';
    const shown = 'Evil\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07\\x1b[2J\\x9b31m\\u202erelay';
    const test = await relay({
      name: evil,
      verificationPath: '/pair\x1b[2J',
      installationName: 'lap\x1b[2Jtop',
      owner: 'ada\x1b]0;owned\x07',
    });
    const result = await pair(broker, test);
    assert.equal(result.code, 0, result.stderr);
    const profile = await profileOf(broker, test);
    assert.equal(
      result.stdout,
      [
        `To pair this machine with "${shown}", open this page and approve:`,
        `  ${test.url}/pair\\x1b[2J?code=WDJB-MJHT`,
        `Code: WDJB-MJHT (check that the page shows it, or enter it at ${test.url}/pair\\x1b[2J)`,
        `Paired with "${shown}" as installation "lap\\x1b[2Jtop" (${test.installationId}), approved by ada\\x1b]0;owned\\x07.`,
        `Saved the new relay profile "${shown}" (${profile!.id}, disabled).`,
        '',
      ].join('\n'),
    );
    assert.equal(profile!.name, shown);
    const status = await notify(broker, 'relay', 'status');
    assert.match(status.stdout, /installation: lap\\x1b\[2Jtop/);
    // A name given through the API before names were cleaned is shown inert by notifyctl as well.
    await broker.request('PATCH', `/v1/providers/${profile!.id}`, { name: `raw ${evil}` });
    const list = await runNotifyctl(['providers', 'list'], { env: broker.home.env });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.stdout.includes(`raw ${shown}`), list.stdout);
    for (const output of [result.stdout, result.stderr, status.stdout, status.stderr, list.stdout])
      // eslint-disable-next-line no-control-regex -- no control character but the line feed may be printed
      assert.doesNotMatch(output, /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
  });

  it('cancels cleanly on Ctrl+C (SIGINT) while polling: exit 1, nothing saved', async () => {
    const test = await relay({ polls: ['pending'] });
    const child = spawn(process.execPath, [NOTIFY, 'relay', 'pair', '--url', test.url, '--allow-private'], {
      env: broker.home.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Code: WDJB-MJHT')) resolve();
      }),
    );
    while (test.calls.filter((call) => call.path.endsWith('/poll')).length < 2)
      await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    assert.equal(await exited, 1);
    assert.match(stderr, /Pairing cancelled; nothing was saved\.\n$/);
    assert.equal(await profileOf(broker, test), undefined);
  });

  it('applies the URL rules before any request: http needs localhost and --allow-private, names are resolved and checked', async () => {
    const test = await relay();
    const port = new URL(test.url).port;
    const hint = 'pass --allow-private to pair with a relay on this machine or on a private network.';
    const cases: [string[], string][] = [
      [['--url', `http://127.0.0.1:${port}`], `--url http://127.0.0.1:${port} is on this machine; ${hint}`],
      [['--url', `http://localhost:${port}`], `--url http://localhost:${port} is on this machine; ${hint}`],
      [['--url', `https://localhost:${port}`], `localhost resolves to `],
      [
        ['--url', 'http://relay.example.com'],
        '--url must use https: http is allowed only for localhost, and relay.example.com is not.',
      ],
      [
        ['--url', 'relay.example.com'],
        '--url must be an absolute URL such as https://relay.example.com; got "relay.example.com".',
      ],
      [[], 'relay pair requires --url <url>. Usage: notify relay pair --url https://relay.example.com.'],
    ];
    for (const [args, message] of cases) {
      const result = await notify(broker, 'relay', 'pair', ...args);
      assert.equal(result.code, 1, args.join(' '));
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith(message), `${args.join(' ')}: ${result.stderr}`);
    }
    assert.deepEqual(test.calls, [], 'the relay was never asked');
    const viaName = await notify(
      broker,
      'relay',
      'pair',
      '--url',
      `http://localhost:${port}`,
      '--allow-private',
    );
    assert.equal(viaName.code, 0, viaName.stderr);
  });

  it('refuses another installation than the one approved', async () => {
    const test = await relay({ installationOverride: { id: 'i_someone_else', name: 'x' } });
    const result = await pair(broker, test);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /does not confirm the installation/);
    assert.equal(await profileOf(broker, test), undefined);
    assertNoCredential(result, test);
  });
});
