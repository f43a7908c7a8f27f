import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it, mock } from 'node:test';
import { InProcessDeliverer } from '../../src/broker/deliverers/in-process-deliverer.js';
import { Dispatcher, type DispatcherDeps } from '../../src/broker/dispatcher.js';
import { DEFAULT_RETRY_POLICY } from '../../src/domain/delivery/retry-policy.js';
import { SecretVault } from '../../src/secrets/secret-vault.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { waitFor } from '../support/wait-for.js';
import { OutboxStore } from '../../src/store/outbox-store.js';
import { ProviderStore } from '../../src/store/provider-store.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import { enqueueSends, SEND_DRAFT } from '../support/outbox-sends.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { TEST_PROVIDER_KIND } from '../support/test-provider.js';

// The test's own polling keeps real timers; the dispatcher's sleeps run on the driven ones.
const realSetTimeout = globalThis.setTimeout;

/**
 * Waits for `probe` while the dispatcher runs on driven timers. A loaded machine (CI) makes it see a
 * busy API and pause up to 250 ms between rounds, on a driven timer: each poll moves the driven time by
 * that pause, a few times at most, far less than the minute a wrong sleep would take.
 */
async function until(probe: () => boolean, what: string): Promise<void> {
  let pauses = 4;
  for (const deadline = Date.now() + 10_000; !probe();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, 10));
    if (pauses-- > 0) mock.timers.tick(250);
  }
}

describe('dispatcher', () => {
  let dir: string;
  let db: Db;
  let outbox: OutboxStore;
  let providers: ProviderStore;
  let receiver: Receiver;
  let now = 1_000_000;

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notify-dispatcher-'));
    db = openDatabase(join(dir, 'notify.db'));
    outbox = new OutboxStore(db);
    providers = new ProviderStore(db);
    receiver.received.length = 0;
  });

  const dispatcher = (vault: SecretVault, options: Partial<DispatcherDeps> = {}) =>
    new Dispatcher({
      outbox,
      providers,
      deliverer: new InProcessDeliverer([TEST_PROVIDER_KIND]),
      kinds: [TEST_PROVIDER_KIND],
      vault,
      clock: () => now,
      random: () => 0.5,
      log: { info() {}, warn() {}, error() {} },
      policy: DEFAULT_RETRY_POLICY,
      concurrency: { total: 8, perProvider: 4 },
      ...options,
    });
  const noKey = new SecretVault(async () => ({ store: 'keyring' }));
  const addProvider = (id: string, sealed = new Map<string, Buffer>()) =>
    providers.save(
      {
        id,
        kind: 'test-http',
        name: id,
        enabled: true,
        settings: { url: receiver.url },
        createdAt: now,
        updatedAt: now,
      },
      sealed,
    );
  const enqueue = (n: number, providerId: string) => enqueueSends(db, [{ id: `n${n}`, providerId }], now);

  it('dead-letters an item whose secrets cannot be opened after six attempts, with provider_secrets_unreadable', async () => {
    addProvider('p', new Map([['token', Buffer.from('sealed under a key that is gone')]]));
    enqueue(1, 'p');
    const run = dispatcher(noKey);
    for (let attempt = 0; attempt < 10; attempt++) {
      await run.tick(now);
      now = outbox.nextDueAt(now) ?? now;
    }
    const [item] = outbox.list('dead', 10);
    assert.equal(item?.lastReason, 'provider_secrets_unreadable');
    assert.equal(item?.attempts, 6);
    assert.equal(receiver.received.length, 0, 'nothing was sent without its secrets');
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("holds a provider's other items for its Retry-After, and only that provider's", async () => {
    addProvider('busy');
    addProvider('calm');
    enqueue(1, 'busy');
    receiver.answer = (request) =>
      String(request.headers['idempotency-key']).endsWith('.busy')
        ? { status: 429, headers: { 'retry-after': '120' } }
        : { status: 200 };
    const run = dispatcher(noKey);
    await run.tick(now);
    enqueue(2, 'busy');
    enqueue(3, 'calm');
    await run.tick(now + 1000);
    assert.deepEqual(
      receiver.received.map((request) => request.headers['idempotency-key']),
      ['n1.busy', 'n3.calm'],
      'n2 of the held provider waited',
    );
    receiver.answer = () => ({ status: 200 });
    await run.tick(now + 121_000);
    assert.equal(outbox.counts().delivered, 3);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs at most its total and per-provider number of attempts at once', async () => {
    for (const id of ['a', 'b', 'c']) addProvider(id);
    for (let n = 0; n < 30; n++) enqueue(n, ['a', 'b', 'c'][n % 3]!);
    receiver.answer = () => ({ status: 200, delayMs: 100 });
    const run = dispatcher(noKey, { concurrency: { total: 5, perProvider: 2 } });
    const round = run.tick(now);
    await waitFor(() => receiver.received.length === 5 && run.inFlight === 5, 'the first attempts');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const byProvider = receiver.received.map((request) =>
      String(request.headers['idempotency-key']).split('.').pop(),
    );
    assert.equal(byProvider.length, 5, 'no more than the total at once');
    for (const id of ['a', 'b', 'c'])
      assert.ok(
        byProvider.filter((each) => each === id).length <= 2,
        `provider ${id}: ${byProvider.join(' ')}`,
      );
    await round;
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("records a refused attempt as the provider's last result, so its health shows failing before the item dead-letters", async () => {
    addProvider('p');
    enqueue(1, 'p');
    receiver.answer = () => ({ status: 503 });
    await dispatcher(noKey).tick(now);
    assert.deepEqual(
      [outbox.list('pending', 1)[0]?.attempts, providers.get('p')?.lastResult?.reason],
      [1, 'http_503'],
    );
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("does not count an attempt the broker's own stop cut short, nor hold it against the provider", async () => {
    addProvider('p');
    enqueue(1, 'p');
    receiver.answer = () => ({ status: 200, delayMs: 5_000 });
    const run = dispatcher(noKey);
    const round = run.tick(now);
    await waitFor(() => receiver.received.length === 1, 'the attempt under way');
    await run.stop();
    await round;
    const [item] = outbox.list('pending', 1);
    assert.deepEqual([item?.attempts, item?.lastReason], [0, 'interrupted']);
    assert.equal(providers.get('p')?.lastResult, undefined);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cuts a Retry-After of a year to an hour, for the item and for its provider', async () => {
    addProvider('p');
    enqueue(1, 'p');
    enqueue(2, 'p');
    receiver.answer = () => ({ status: 429, headers: { 'retry-after': String(365 * 24 * 3600) } });
    const run = dispatcher(noKey, { concurrency: { total: 1, perProvider: 1 } });
    await run.tick(now);
    const hour = 3_600_000;
    const refused = outbox.list('pending', 10).find((each) => each.attempts === 1);
    assert.equal(refused?.nextAttemptAt, now + hour, 'the refused item waits an hour, not a year');
    receiver.answer = () => ({ status: 200 });
    await run.tick(now + hour - 1);
    assert.equal(receiver.received.length, 1, 'the provider is held for the hour');
    await run.tick(now + hour);
    await run.tick(now + hour);
    assert.equal(outbox.counts().delivered, 2, 'after the hour both items go');
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("wakes for a send's retry when the notification's clear waits behind it, not a minute later", async () => {
    addProvider('p');
    enqueue(1, 'p');
    receiver.answer = () => ({ status: 503 });
    mock.timers.enable({ apis: ['setTimeout'] });
    const run = dispatcher(noKey);
    try {
      run.start();
      await until(() => outbox.list('pending', 1)[0]?.lastReason === 'http_503', 'the refused send');
      const retryAt = outbox.list('pending', 1)[0]!.nextAttemptAt;
      receiver.answer = () => ({ status: 200 });
      now += 1_000;
      const clearAt = now;
      outbox.enqueue(
        'n1',
        [{ routeId: 'p', providerId: 'p', operation: 'clear', includeMessage: false }],
        now,
      );
      run.wake();
      await until(() => !outbox.hasIntake() && run.inFlight === 0, 'the clear taken in');
      assert.ok(
        retryAt - clearAt < 59_000,
        `the retry falls due within the minute (${retryAt - clearAt} ms)`,
      );
      now = retryAt;
      mock.timers.tick(retryAt - clearAt);
      await until(() => outbox.counts().delivered === 2, 'the retried send and then the clear delivered');
      assert.deepEqual(
        receiver.received.map((request) => request.body.operation),
        ['send', 'send', 'clear'],
      );
    } finally {
      mock.timers.reset();
      await run.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("wakes when a route's delay ends, never earlier for a send cancelled meanwhile", async () => {
    addProvider('p');
    const notifications = new NotificationStore(db);
    const waits = (id: string, delaySeconds: number) => {
      notifications.upsert(id, SEND_DRAFT, now, {});
      outbox.enqueue(
        id,
        [{ routeId: 'p', providerId: 'p', operation: 'send', includeMessage: true, delaySeconds }],
        now,
      );
    };
    waits('n1', 10);
    waits('n2', 40);
    outbox.enqueue('n1', [{ routeId: 'p', providerId: 'p', operation: 'cancel', includeMessage: true }], now);
    const start = now;
    const rounds: number[] = [];
    const claim = outbox.claim.bind(outbox);
    outbox.claim = (at, ...rest) => {
      rounds.push(at - start);
      return claim(at, ...rest);
    };
    mock.timers.enable({ apis: ['setTimeout'] });
    const run = dispatcher(noKey);
    try {
      run.start();
      await until(() => rounds.length > 0 && !outbox.hasIntake(), 'the first round');
      // The driven clock and the dispatcher's timers move together, a second at a time.
      for (let second = 1; second <= 40; second++) {
        now = start + second * 1000;
        mock.timers.tick(1000);
        await new Promise((resolve) => realSetTimeout(resolve, 1));
      }
      await until(() => outbox.counts().delivered === 1, 'the send whose delay ended');
      assert.deepEqual(
        rounds.filter((at) => at < 40_000),
        [0],
        'no round between the start and the end of the delay (the cancelled send at 10 s wakes nobody)',
      );
      assert.ok(rounds.includes(40_000), `a round when the delay ends (rounds at ${rounds.join(', ')} ms)`);
      assert.equal(receiver.received.length, 1);
    } finally {
      mock.timers.reset();
      await run.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tries again by itself when a round fails because another program holds the write lock', async () => {
    addProvider('p');
    enqueue(1, 'p');
    const errors: string[] = [];
    receiver.answer = () => ({ status: 503 });
    const run = dispatcher(noKey, {
      clock: Date.now,
      random: () => 0.99,
      policy: { ...DEFAULT_RETRY_POLICY, firstBackoffCapMs: 300, minSpanMs: 0 },
      log: { info() {}, warn() {}, error: (line) => errors.push(line) },
    });
    run.start();
    const other = openDatabase(join(dir, 'notify.db'));
    try {
      await waitFor(() => outbox.list('pending', 10)[0]?.attempts === 1, 'the first attempt refused');
      receiver.answer = () => ({ status: 200 });
      other.exec('BEGIN IMMEDIATE');
      // The retry falls due while the lock is held, so its round fails.
      await waitFor(() => errors.length > 0, 'a failed round');
      other.exec('ROLLBACK');
      await waitFor(() => outbox.counts().delivered === 1, 'the retry delivered', 5_000);
      assert.match(errors[0]!, /a dispatcher round failed/);
    } finally {
      await run.stop();
      other.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
