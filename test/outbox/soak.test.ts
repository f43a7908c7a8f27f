import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InProcessDeliverer } from '../../src/broker/deliverers/in-process-deliverer.js';
import { Dispatcher } from '../../src/broker/dispatcher.js';
import { createIdGenerator } from '../../src/broker/ids.js';
import { NotificationService } from '../../src/broker/notification-service.js';
import { OutboxEnqueuer } from '../../src/broker/outbox-enqueuer.js';
import { DEFAULT_RETRY_POLICY } from '../../src/domain/delivery/retry-policy.js';
import { SecretVault } from '../../src/secrets/secret-vault.js';
import { openDatabase } from '../../src/store/database.js';
import { WriteQueue } from '../../src/store/write-queue.js';
import { NotificationStore } from '../../src/store/notification-store.js';
import { OutboxStore } from '../../src/store/outbox-store.js';
import { ProviderStore } from '../../src/store/provider-store.js';
import { RouteStore } from '../../src/store/route-store.js';
import { startReceiver, type Answer, type Receiver } from '../support/receiver.js';
import { TEST_PROVIDER_KIND } from '../support/test-provider.js';

const NOTIFICATIONS = Number(process.env['SOAK_NOTIFICATIONS'] ?? 10_000);
const ROUTES = 3;
const FAILURE_RATE = 0.3;
/** The ways a receiver fails, drawn evenly: each is retried, a 429 also holds its provider. */
const FAILURES: Answer[] = [
  { status: 500 },
  { status: 503 },
  { status: 429, headers: { 'retry-after': '30' } },
];

/** A seeded generator, so a failing run can be repeated. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('outbox soak', () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-soak-'));
  const receivers: Receiver[] = [];
  after(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers or dead-letters every one of 30,000 items, with the right reason, when receivers fail 30% of attempts', async () => {
    const db = openDatabase(join(dir, 'notify.db'));
    let now = Date.UTC(2026, 10, 23, 12);
    const clock = () => now;
    const newId = createIdGenerator(clock);
    const outbox = new OutboxStore(db);
    const providers = new ProviderStore(db);
    const routes = new RouteStore(db);
    const failures = seeded(7);
    /** Every status answered, per idempotency key, in order: what each item's receiver saw. */
    const answered = new Map<string, number[]>();
    for (let i = 0; i < ROUTES; i++) {
      const receiver = await startReceiver((request) => {
        const draw = failures();
        const answer =
          draw < FAILURE_RATE
            ? FAILURES[Math.floor((draw / FAILURE_RATE) * FAILURES.length)]!
            : { status: 200 };
        const key = String(request.headers['idempotency-key']);
        answered.set(key, [...(answered.get(key) ?? []), answer.status]);
        return answer;
      });
      receivers.push(receiver);
      const providerId = `p${i}`;
      providers.save(
        {
          id: providerId,
          kind: 'test-http',
          name: providerId,
          enabled: true,
          settings: { url: receiver.url },
          createdAt: now,
          updatedAt: now,
        },
        new Map(),
      );
      routes.save({
        id: `r${i}`,
        name: `r${i}`,
        providerId,
        enabled: true,
        minimumPriority: 'low',
        includeMessage: true,
        delaySeconds: 0,
        createdAt: now,
        updatedAt: now,
      });
    }
    const enqueuer = new OutboxEnqueuer({ outbox, routes, providers, kinds: [TEST_PROVIDER_KIND] });
    const service = new NotificationService({
      store: new NotificationStore(db),
      clock,
      newId,
      types: () => ({}) as never,
      writes: new WriteQueue(db),
      withinWrite: (change) => enqueuer.enqueue(change),
    });
    // Batches arrive together, so the write queue commits each batch as one transaction.
    for (let batch = 0; batch < NOTIFICATIONS; batch += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, NOTIFICATIONS - batch) }, (_, i) =>
          service.create({ title: `soak ${batch + i}`, message: 'm', type: 'info', priority: 'normal' }),
        ),
      );
    }
    assert.equal(outbox.counts().pending, NOTIFICATIONS * ROUTES);

    const dispatcher = new Dispatcher({
      outbox,
      providers,
      deliverer: new InProcessDeliverer([TEST_PROVIDER_KIND]),
      kinds: [TEST_PROVIDER_KIND],
      vault: new SecretVault(() => Promise.reject(new Error('no secrets in this test'))),
      clock,
      random: seeded(11),
      log: { info() {}, warn() {}, error() {} },
      policy: DEFAULT_RETRY_POLICY,
      concurrency: { total: 96, perProvider: 32 },
    });
    // Time is driven, never waited for: when nothing is due the clock jumps a minute on or to the next
    // due item; otherwise each round moves it a second on, so a provider's Retry-After hold runs out.
    for (;;) {
      await dispatcher.tick(now);
      const counts = outbox.counts();
      if (counts.pending === 0 && counts.in_flight === 0) break;
      const next = outbox.nextDueAt(now) ?? now;
      now = next > now ? Math.max(now + 60_000, next) : now + 1_000;
    }

    const counts = outbox.counts();
    assert.equal(counts.delivered + counts.dead, NOTIFICATIONS * ROUTES, 'none lost, none stuck');
    const items = [
      ...outbox.list('delivered', NOTIFICATIONS * ROUTES),
      ...outbox.list('dead', NOTIFICATIONS * ROUTES),
    ];
    assert.equal(items.length, NOTIFICATIONS * ROUTES);
    for (const item of items) {
      const statuses = answered.get(item.idempotencyKey) ?? [];
      assert.equal(statuses.length, item.attempts, `${item.idempotencyKey}: one request per attempt`);
      if (item.state === 'delivered') {
        assert.deepEqual(statuses.slice(-1), [200], `${item.idempotencyKey} delivered on its last attempt`);
        assert.equal(
          statuses.indexOf(200),
          statuses.length - 1,
          `${item.idempotencyKey} sent once it got through`,
        );
      } else {
        assert.equal(
          item.attempts,
          DEFAULT_RETRY_POLICY.maxAttempts,
          `${item.idempotencyKey} used every attempt`,
        );
        assert.ok(!statuses.includes(200), `${item.idempotencyKey} never got through`);
        assert.equal(
          item.lastReason,
          `http_${statuses.at(-1)}`,
          `${item.idempotencyKey}: the last refusal is its reason`,
        );
      }
    }
    // 0.3^6 of 30,000: a few dozen at most.
    assert.ok(counts.dead < 60, `${counts.dead} dead`);
    db.close();
  });
});
