import type { NotifyPaths } from '../config/paths.js';
import type { ProviderKind } from '../delivery/provider.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/delivery/retry-policy.js';
import type { Logger } from '../log/logger.js';
import { loadMasterKey, type KeyStoreKind } from '../secrets/master-key.js';
import { SecretVault } from '../secrets/secret-vault.js';
import { readChoice, recordChoice } from '../store/choices-store.js';
import type { Db } from '../store/database.js';
import { OutboxStore } from '../store/outbox-store.js';
import { ProviderStore } from '../store/provider-store.js';
import { RouteStore } from '../store/route-store.js';
import type { Clock } from './clock.js';
import type { Deliverer } from './deliverers/deliverer.js';
import { DEFAULT_CONCURRENCY, Dispatcher, type Concurrency } from './dispatcher.js';
import { OutboxEnqueuer } from './outbox-enqueuer.js';
import { OutboxService } from './outbox-service.js';
import { ProviderService } from './provider-service.js';
import { RouteService } from './route-service.js';

export interface OutboundOptions {
  kinds: readonly ProviderKind[];
  /** Where the dispatcher's provider calls run (a WorkerDeliverer in notifyd). */
  deliverer: Deliverer;
  policy?: RetryPolicy;
  concurrency?: Concurrency;
  random?: () => number;
}

export interface Outbound {
  /** Starts delivering: the dispatcher, and the deliverer when a provider is enabled. */
  start(): void;
  enqueuer: OutboxEnqueuer;
  dispatcher: Dispatcher;
  providers: ProviderService;
  routes: RouteService;
  outbox: OutboxService;
}

const KEY_STORE_CHOICE = 'secrets.master_key_store';

/** Wires outbound delivery: stores, the secrets vault, the enqueue, the dispatcher and management. */
export function createOutbound(
  db: Db,
  paths: NotifyPaths,
  clock: Clock,
  newId: () => string,
  log: Logger,
  options: OutboundOptions,
): Outbound {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const outboxStore = new OutboxStore(db);
  const providerStore = new ProviderStore(db);
  const routeStore = new RouteStore(db);
  const vault = new SecretVault(async () => {
    const masterKey = await loadMasterKey({
      dataDir: paths.dataDir,
      recorded: () => readChoice(db, KEY_STORE_CHOICE) as KeyStoreKind | undefined,
      choose: (proposed) => recordChoice(db, KEY_STORE_CHOICE, proposed) as KeyStoreKind,
      warn: (line) => log.warn(`secrets: ${line}`),
    });
    if (!masterKey.key) log.error('secrets: the OS keyring holding the secrets master key does not answer');
    return masterKey;
  });
  const enqueuer = new OutboxEnqueuer({
    outbox: outboxStore,
    routes: routeStore,
    providers: providerStore,
    kinds: options.kinds,
  });
  // The delivery thread costs memory for as long as it runs: it starts once a provider is enabled.
  const prepareWhenEnabled = () => {
    if (providerStore.hasEnabled()) options.deliverer.prepare();
  };
  const changed = () => {
    enqueuer.invalidate();
    prepareWhenEnabled();
  };
  const dispatcher = new Dispatcher({
    outbox: outboxStore,
    providers: providerStore,
    deliverer: options.deliverer,
    vault,
    clock,
    random: options.random ?? Math.random,
    log,
    policy,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
  });
  return {
    start: () => {
      dispatcher.start();
      prepareWhenEnabled();
    },
    enqueuer,
    dispatcher,
    providers: new ProviderService({
      providers: providerStore,
      kinds: options.kinds,
      vault,
      clock,
      newId,
      policy,
      changed,
    }),
    routes: new RouteService({ routes: routeStore, providers: providerStore, clock, newId, changed }),
    outbox: new OutboxService(outboxStore, clock, () => dispatcher.wake()),
  };
}
