import type { NotifyPaths } from '../config/paths.js';
import type { ProviderKind } from '../delivery/provider.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/delivery/retry-policy.js';
import type { QuietHours } from '../domain/quiet-hours.js';
import type { Logger } from '../log/logger.js';
import { loadMasterKey, type KeyStoreKind } from '../secrets/master-key.js';
import { SecretVault } from '../secrets/secret-vault.js';
import { readChoice, recordChoice } from '../store/choices-store.js';
import type { Db } from '../store/database.js';
import { FollowUpStore } from '../store/follow-up-store.js';
import { OutboxStore } from '../store/outbox-store.js';
import { ProviderStore } from '../store/provider-store.js';
import { RelayCursorStore } from '../store/relay-cursor-store.js';
import { RouteStore } from '../store/route-store.js';
import type { Clock } from './clock.js';
import type { Deliverer } from './deliverers/deliverer.js';
import { DEFAULT_CONCURRENCY, Dispatcher, type Concurrency } from './dispatcher.js';
import { ChannelListeners, type ChannelAnswerSink } from './channel-listeners.js';
import { FollowUps } from './follow-ups.js';
import { OutboxEnqueuer } from './outbox-enqueuer.js';
import { OutboxService } from './outbox-service.js';
import { ProviderService } from './provider-service.js';
import { RelayAnswers, type RelayAnswerSink } from './relay-answers.js';
import { RouteService } from './route-service.js';

export interface OutboundOptions {
  kinds: readonly ProviderKind[];
  /** Where the dispatcher's provider calls run (a WorkerDeliverer in notifyd). */
  deliverer: Deliverer;
  policy?: RetryPolicy;
  concurrency?: Concurrency;
  random?: () => number;
  /** The quiet hours a route's sends wait out unless it sends during them. */
  quietHours?: () => QuietHours | undefined;
  /** The relays' event streams reconnect after this back-off (docs/relay-protocol.md's by default). */
  relayBackoff?: { firstMs: number; maxMs: number };
}

export interface Outbound {
  /** Starts delivering: the dispatcher, and the deliverer when a provider is enabled. */
  start(): void;
  enqueuer: OutboxEnqueuer;
  dispatcher: Dispatcher;
  providers: ProviderService;
  routes: RouteService;
  outbox: OutboxService;
  /** The outbox table itself: quiet hours that change re-time the sends they hold. */
  outboxStore: OutboxStore;
  /**
   * Starts following the event streams of enabled relay providers (and of those enabled later),
   * applying their answers to `sink`; stopped with stop().
   */
  followRelays(sink: RelayAnswerSink): void;
  /**
   * Starts listening to the answers of enabled providers whose kind carries them back (Telegram,
   * Slack, ...), and of those enabled later, applying them to `sink`; stopped with stop().
   */
  listenToChannels(sink: ChannelAnswerSink): void;
  /** Stops the follow-ups, the relays' event streams and the channels' listeners, then the dispatcher. */
  stop(): Promise<void>;
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
    ...(options.quietHours && { quietHours: options.quietHours }),
  });
  // The delivery thread costs memory for as long as it runs: it starts once a provider is enabled.
  const prepareWhenEnabled = () => {
    if (providerStore.hasEnabled()) options.deliverer.prepare();
  };
  let relayAnswers: RelayAnswers | undefined;
  let channelListeners: ChannelListeners | undefined;
  const changed = () => {
    enqueuer.invalidate();
    prepareWhenEnabled();
    relayAnswers?.sync();
    channelListeners?.sync();
  };
  const dispatcher = new Dispatcher({
    outbox: outboxStore,
    providers: providerStore,
    deliverer: options.deliverer,
    kinds: options.kinds,
    vault,
    clock,
    random: options.random ?? Math.random,
    log,
    policy,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
  });
  const followUps = new FollowUps({
    store: new FollowUpStore(db),
    providers: providerStore,
    kinds: options.kinds,
    vault,
    clock,
    log,
  });
  return {
    start: () => {
      dispatcher.start();
      followUps.start();
      prepareWhenEnabled();
    },
    followRelays: (sink) => {
      relayAnswers = new RelayAnswers({
        providers: providerStore,
        vault,
        cursors: new RelayCursorStore(db),
        outbox: outboxStore,
        sink,
        clock,
        random: options.random ?? Math.random,
        log,
        ...(options.relayBackoff && { backoff: options.relayBackoff }),
      });
      relayAnswers.sync();
    },
    listenToChannels: (sink) => {
      channelListeners = new ChannelListeners({
        providers: providerStore,
        kinds: options.kinds,
        vault,
        cursors: new RelayCursorStore(db),
        sink,
        clock,
        random: options.random ?? Math.random,
        log,
      });
      channelListeners.sync();
    },
    stop: async () => {
      await followUps.stop();
      await channelListeners?.stop();
      await relayAnswers?.stop();
      await dispatcher.stop();
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
      listenerHealth: (providerId) =>
        channelListeners?.health(providerId) ?? relayAnswers?.health(providerId),
    }),
    routes: new RouteService({ routes: routeStore, providers: providerStore, clock, newId, changed }),
    outbox: new OutboxService(outboxStore, clock, () => dispatcher.wake()),
    outboxStore,
  };
}
