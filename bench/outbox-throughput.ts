/**
 * Outbound delivery costs, each beside a baseline measured in the same run:
 *
 * - Create throughput (wrk, POST /v1/notifications) with 3 enabled routes matching every notification,
 *   against the same broker build with no routes: target ≥ 0.8×. The routes' provider delivers to a
 *   local receiver, so the dispatcher drains while the load runs, as it would for a user.
 * - Dispatcher drain rate: items/s from a full outbox to a local HTTP receiver, against the same
 *   provider adapter called directly with the same concurrency (no outbox): target ≥ 1,000 items/s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dispatcher, DEFAULT_CONCURRENCY } from '../src/broker/dispatcher.js';
import { DEFAULT_RETRY_POLICY } from '../src/domain/delivery/retry-policy.js';
import { SecretVault } from '../src/secrets/secret-vault.js';
import { openDatabase } from '../src/store/database.js';
import { OutboxStore } from '../src/store/outbox-store.js';
import { ProviderStore } from '../src/store/provider-store.js';
import { startBroker, type BrokerProcess } from '../test/support/broker-process.js';
import { enabledRouteTo, OUTBOX_BROKER } from '../test/support/outbox-broker.js';
import { startReceiver } from '../test/support/receiver.js';
import { TEST_PROVIDER_KIND } from '../test/support/test-provider.js';
import { printTable } from './support/report.js';
import { wrkPost } from './support/wrk-rate.js';

const CONNECTIONS = 16;
const SLICE_SECONDS = 5;
const DRAIN_ITEMS = 5_000;
const BODY = JSON.stringify({
  title: 'Build finished',
  message: 'The release build of notify finished in 42 s; 312 tests passed, 0 failed.',
  priority: 'high',
  agent: 'claude-code',
  project: 'notify',
});

export async function runOutboxBench(): Promise<void> {
  console.log(
    `machine load average ${loadavg()[0]!.toFixed(2)} (1 min); rerun on an idle machine if it was busy`,
  );
  const receiver = await startReceiver();
  const config = { rateLimitPerSecond: 1_000_000_000 };
  let withRoutes: BrokerProcess | undefined;
  let without: BrokerProcess | undefined;
  try {
    withRoutes = await startBroker({ script: OUTBOX_BROKER, config });
    without = await startBroker({ script: OUTBOX_BROKER, config });
    for (let i = 0; i < 3; i++) await enabledRouteTo(withRoutes, receiver.url);
    const post = (broker: BrokerProcess) =>
      wrkPost(
        `${broker.baseUrl}/v1/notifications`,
        { authorization: `Bearer ${broker.token}` },
        BODY,
        CONNECTIONS,
        SLICE_SECONDS,
      );
    await post(withRoutes);
    await post(without);
    // Slices ordered A B B A, so a disturbance of the shared machine weighs on both sides.
    const a1 = await post(withRoutes);
    const b1 = await post(without);
    const b2 = await post(without);
    const a2 = await post(withRoutes);
    const routed = (a1 + a2) / 2;
    const plain = (b1 + b2) / 2;
    printTable('create throughput (req/s), 3 matching routes vs none', [
      {
        label: 'POST /v1/notifications',
        broker: routed,
        baseline: plain,
        target: '≥ 0.80× baseline',
        pass: routed >= 0.8 * plain,
      },
    ]);
  } finally {
    await withRoutes?.stop();
    await without?.stop();
    withRoutes?.home.cleanup();
    without?.home.cleanup();
  }

  try {
    const drained = await drainRate(receiver.url);
    const direct = await directRate(receiver.url);
    printTable('dispatcher drain (items/s) to a local HTTP receiver vs the adapter called directly', [
      {
        label: `${DRAIN_ITEMS} items`,
        broker: drained,
        baseline: direct,
        target: '≥ 1000 items/s',
        pass: drained >= 1000,
      },
    ]);
  } finally {
    await receiver.close();
  }
}

async function drainRate(url: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-drain-'));
  const db = openDatabase(join(dir, 'notify.db'));
  try {
    const outbox = new OutboxStore(db);
    const providers = new ProviderStore(db);
    const now = Date.now();
    providers.save(
      {
        id: 'p',
        kind: 'test-http',
        name: 'p',
        enabled: true,
        settings: { url },
        createdAt: now,
        updatedAt: now,
      },
      new Map(),
    );
    db.transaction(() => {
      for (let i = 0; i < DRAIN_ITEMS; i++) {
        const payload = drainPayload(i);
        outbox.enqueue(
          `n${i}`,
          [
            {
              routeId: 'r',
              providerId: 'p',
              operation: 'send',
              event: 'notification.created',
              payload,
              idempotencyKey: `n${i}.r`,
            },
          ],
          now,
        );
      }
    })();
    const dispatcher = new Dispatcher({
      outbox,
      providers,
      kinds: [TEST_PROVIDER_KIND],
      vault: new SecretVault(() => Promise.reject(new Error('no secrets here'))),
      clock: Date.now,
      random: Math.random,
      log: { info() {}, warn() {}, error() {} },
      policy: DEFAULT_RETRY_POLICY,
      // One provider: the per-provider limit is the one that binds, as it would for a user.
      concurrency: { ...DEFAULT_CONCURRENCY },
    });
    const started = performance.now();
    dispatcher.start();
    while (outbox.counts().delivered < DRAIN_ITEMS) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (performance.now() - started) / 1000;
    await dispatcher.stop();
    return DRAIN_ITEMS / seconds;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function directRate(url: string): Promise<number> {
  const signal = new AbortController().signal;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < DRAIN_ITEMS) {
      const i = next++;
      const payload = drainPayload(i);
      await TEST_PROVIDER_KIND.deliver(
        {
          operation: 'send',
          event: 'notification.created',
          notification: payload,
          idempotencyKey: `n${i}.r`,
        },
        { settings: { url }, signal },
      );
    }
  };
  await Promise.all(Array.from({ length: DEFAULT_CONCURRENCY.perProvider }, worker));
  return DRAIN_ITEMS / ((performance.now() - started) / 1000);
}

/** The notification of drain item i: the same for the broker's dispatcher and the direct baseline. */
function drainPayload(i: number) {
  return {
    id: `n${i}`,
    title: 't',
    type: 'info',
    priority: 'normal',
    status: 'active',
    agent: 'a',
    createdAt: '',
    updatedAt: '',
  } as const;
}
