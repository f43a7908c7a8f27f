import type { AnswerLink, DeliveryResult, ProviderKind, SettingValues } from '../delivery/provider.js';
import { honouredRetryAfterMs, nextAttemptAt, type RetryPolicy } from '../domain/delivery/retry-policy.js';
import type { Logger } from '../log/logger.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { OutboxItem, OutboxStore, Settlement } from '../store/outbox-store.js';
import type { ProviderStore } from '../store/provider-store.js';
import { answerLinkFor } from './answer-links.js';
import type { Clock } from './clock.js';
import type { Deliverer } from './deliverers/deliverer.js';

export interface Concurrency {
  total: number;
  perProvider: number;
}

export const DEFAULT_CONCURRENCY: Concurrency = { total: 32, perProvider: 8 };
/** A safety net only: new work and finished attempts wake the dispatcher at once. */
const LONGEST_SLEEP_MS = 60_000;
/**
 * While the API keeps the main thread busy (a flood of creates), the dispatcher's own work there (moving
 * the intake into the outbox, claiming, recording results) takes at most this share of the time: the API
 * comes first. Each round also sets the delivery thread and the receivers to work, which on a small
 * machine takes CPU from the API too: with 3 routes under a flood of creates, 5% left 0.78x of the
 * throughput without routes, 2% 0.83x, 1% 0.88x (bench/outbox-throughput.ts). At ordinary rates, even
 * hundreds of notifications a second, the main thread is mostly idle and the dispatcher works flat out.
 */
const SHARE_UNDER_LOAD = 0.01;
/** The longest pause between rounds under load: deliveries go on, slowly, through any flood. */
const LONGEST_PAUSE_MS = 250;
/** The main thread counts as busy when work other than the dispatcher's filled this share of it. */
const BUSY_UTILIZATION = 0.5;
/** How often the main thread's load is sampled (event loop utilization over this window). */
const LOAD_WINDOW_MS = 100;
/** A round that failed (the disk is full, another program holds the write lock) is tried again after this. */
const FAILED_ROUND_RETRY_MS = 1_000;

export interface DispatcherDeps {
  outbox: OutboxStore;
  providers: ProviderStore;
  /** Runs the provider calls: on the delivery thread in notifyd, in process in tests. */
  deliverer: Deliverer;
  /** The kinds notifyd knows: those with `answerButtons` get the relay's answer link. */
  kinds: readonly ProviderKind[];
  vault: SecretVault;
  clock: Clock;
  random: () => number;
  log: Logger;
  policy: RetryPolicy;
  concurrency: Concurrency;
}

/**
 * Delivers outbox items: claims due ones within the concurrency limits, runs each attempt with the
 * per-attempt time-out, and settles it as delivered, pending again (backoff or Retry-After) or dead.
 * Woken by new work and by finished attempts; sleeps until the next due item otherwise. Tests drive it
 * with tick(now) without start().
 */
export class Dispatcher {
  readonly #inFlight = new Map<number, AbortController>();
  readonly #perProvider = new Map<string, number>();
  /** Providers that answered 429/503 with Retry-After: none of their items start before this time. */
  readonly #holds = new Map<string, number>();
  readonly #running = new Set<Promise<void>>();
  #started = false;
  #wakeQueued = false;
  #timer: NodeJS.Timeout | undefined;
  /** Results of finished attempts, recorded together at the start of the next tick. */
  #settled: Settlement[] = [];
  /** Under load, no tick starts before this time (performance.now()). */
  #notBefore = 0;
  /** Whether work other than the dispatcher's kept the main thread busy in the last sampled window. */
  #busy = false;
  #loadSampledAt = performance.now();
  #loopSample = performance.eventLoopUtilization();
  /** The dispatcher's own main-thread time (ms) since the last sample, left out of the API's load. */
  #ownMs = 0;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Puts items a crashed run had claimed back in line, then starts delivering. */
  start(): number {
    const recovered = this.deps.outbox.recoverInFlight(this.deps.clock());
    if (recovered > 0)
      this.deps.log.warn(`outbox: ${recovered} item(s) interrupted by a previous stop were put back in line`);
    this.#started = true;
    this.wake();
    return recovered;
  }

  /**
   * Stops claiming, aborts attempts under way (they go back in line), waits for them to settle and
   * closes the deliverer.
   */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    for (const controller of this.#inFlight.values()) controller.abort();
    await Promise.all(this.#running);
    this.recordSettled();
    await this.deps.deliverer.close();
  }

  /** New work: run a tick soon, within the dispatcher's share of the time while the API is busy. */
  wake(): void {
    this.runSoon();
  }

  /** Free capacity, due work or new work: run a tick soon, once however often it is called. */
  private runSoon(): void {
    if (!this.#started || this.#wakeQueued) return;
    this.#wakeQueued = true;
    const run = () => {
      this.#wakeQueued = false;
      if (!this.#started) return;
      this.tick(this.deps.clock()).catch((error: unknown) => {
        this.deps.log.error(`outbox: a dispatcher round failed (${(error as Error).name})`);
        // Nothing else may come to wake it (an idle broker waiting for a retry), so it wakes itself.
        this.retryRoundLater();
      });
    };
    const now = performance.now();
    const wait = this.apiBusy(now) ? Math.min(this.#notBefore - now, LONGEST_PAUSE_MS) : 0;
    if (wait > 0) setTimeout(run, wait);
    else setImmediate(run);
  }

  /**
   * Whether the API kept the main thread busy lately: its event loop utilization over the last window,
   * less the dispatcher's own rounds, so that draining a backlog never slows the dispatcher itself.
   */
  private apiBusy(now: number): boolean {
    const window = now - this.#loadSampledAt;
    if (window < LOAD_WINDOW_MS) return this.#busy;
    const loop = performance.eventLoopUtilization(this.#loopSample);
    this.#busy = (loop.active - this.#ownMs) / window > BUSY_UTILIZATION;
    this.#loopSample = performance.eventLoopUtilization();
    this.#loadSampledAt = now;
    this.#ownMs = 0;
    return this.#busy;
  }

  private retryRoundLater(): void {
    if (!this.#started) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.runSoon(), FAILED_ROUND_RETRY_MS);
    this.#timer.unref();
  }

  /**
   * Records finished attempts, claims what is due at `now` and runs it; resolves when those attempts
   * have settled and their results are recorded.
   */
  async tick(now: number): Promise<void> {
    const started = performance.now();
    this.recordSettled();
    const free = this.deps.concurrency.total - this.#inFlight.size;
    // While the API is busy a round moves only as much of the intake as it can start (each row gives at
    // least one item): moving more would only take the API's time now for items that wait anyway.
    const claimed =
      free > 0
        ? this.deps.outbox.claim(now, free, (id) => this.room(id, now), this.#busy ? free : undefined)
        : [];
    const attempts = claimed.map((item) => this.track(item));
    const intakeLeft = this.deps.outbox.hasIntake();
    const finished = performance.now();
    this.#ownMs += finished - started;
    this.#notBefore = finished + (finished - started) * (1 / SHARE_UNDER_LOAD - 1);
    // The rest of a long intake is moved by the next tick. When every free slot was filled, finishing
    // attempts wake the dispatcher; otherwise it sleeps until the next item falls due.
    if (this.#started && intakeLeft) this.runSoon();
    else if (this.#started && claimed.length < free) this.sleepUntilDue(now);
    await Promise.all(attempts);
    this.recordSettled();
  }

  /** One transaction for every result waiting; a crash before it only means those items are sent again. */
  private recordSettled(): void {
    if (this.#settled.length === 0) return;
    const settled = this.#settled;
    this.#settled = [];
    try {
      this.deps.outbox.settleAll(settled);
    } catch (error) {
      // Kept for the next round: recording them later is better than sending them again.
      this.#settled = [...settled, ...this.#settled];
      throw error;
    }
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** How many more items of this provider may start now. */
  private room(providerId: string, now: number): number {
    const heldUntil = this.#holds.get(providerId);
    if (heldUntil !== undefined && heldUntil > now) return 0;
    return Math.max(0, this.deps.concurrency.perProvider - (this.#perProvider.get(providerId) ?? 0));
  }

  private track(item: OutboxItem): Promise<void> {
    this.#perProvider.set(item.providerId, (this.#perProvider.get(item.providerId) ?? 0) + 1);
    const controller = new AbortController();
    this.#inFlight.set(item.seq, controller);
    const done = this.deliver(item, controller.signal)
      .catch((error: unknown) =>
        this.deps.log.error(`outbox: item ${item.seq} could not be settled (${(error as Error).name})`),
      )
      .finally(() => {
        this.#inFlight.delete(item.seq);
        this.#perProvider.set(item.providerId, (this.#perProvider.get(item.providerId) ?? 1) - 1);
        this.#running.delete(done);
        // Refill in batches once the provider is half idle: one claim transaction for several items.
        // Other providers' completions and new work wake it too, so nothing waits for long.
        if ((this.#perProvider.get(item.providerId) ?? 0) <= this.deps.concurrency.perProvider / 2)
          this.runSoon();
      });
    this.#running.add(done);
    return done;
  }

  private async deliver(item: OutboxItem, stop: AbortSignal): Promise<void> {
    const started = this.deps.clock();
    const result = await this.attempt(item, stop);
    const now = this.deps.clock();
    const durationMs = Math.max(0, now - started);
    const provider = {
      id: item.providerId,
      lastResult: {
        outcome: result.outcome,
        ...(result.outcome !== 'delivered' && { reason: result.reason }),
        ...(result.status !== undefined && { status: result.status }),
        at: now,
        durationMs,
      },
    };
    if (result.outcome === 'delivered') {
      this.#settled.push({
        seq: item.seq,
        state: 'delivered',
        now,
        details: {
          ...(result.reference !== undefined && { reference: result.reference }),
          ...(result.status !== undefined && { status: result.status }),
        },
        provider,
      });
      return;
    }
    const status = result.status !== undefined ? { status: result.status } : {};
    // An attempt cut short by our own stop is no fault of the receiver: it goes back in line at once.
    const next =
      result.outcome !== 'retry'
        ? undefined
        : result.reason === 'interrupted'
          ? now
          : nextAttemptAt(
              this.deps.policy,
              item.attempts,
              now,
              this.deps.random,
              item.createdAt,
              result.retryAfterMs,
            );
    if (result.outcome === 'retry' && result.retryAfterMs !== undefined) {
      this.#holds.set(item.providerId, now + honouredRetryAfterMs(this.deps.policy, result.retryAfterMs));
    }
    const where = `outbox: item ${item.seq} (${item.operation} via provider ${item.providerId}) attempt ${item.attempts}/${this.deps.policy.maxAttempts}`;
    if (next === undefined) {
      this.#settled.push({
        seq: item.seq,
        state: 'dead',
        now,
        details: { reason: result.reason, ...status },
        provider,
      });
      this.deps.log.warn(`${where}: ${result.reason} after ${durationMs} ms; dead-lettered`);
    } else {
      // An attempt cut short by our own stop does not count, and says nothing of the provider's health.
      const interrupted = result.reason === 'interrupted';
      this.#settled.push({
        seq: item.seq,
        state: 'pending',
        now,
        details: {
          nextAttemptAt: next,
          reason: result.reason,
          ...status,
          ...(interrupted && { uncounted: true }),
        },
        ...(!interrupted && { provider }),
      });
      this.deps.log.warn(
        `${where}: ${result.reason} after ${durationMs} ms; next attempt in ${next - now} ms`,
      );
    }
  }

  /** One attempt's result; every failure becomes a reason code, never exception text. */
  private async attempt(item: OutboxItem, stop: AbortSignal): Promise<DeliveryResult> {
    const provider = this.deps.providers.forDelivery(item.providerId);
    if (!provider) return { outcome: 'reject', reason: 'provider_deleted' };
    if (!provider.enabled) return { outcome: 'reject', reason: 'provider_disabled' };
    let reference: string | undefined;
    if (item.operation !== 'send') {
      const send = this.deps.outbox.sendOf(item.notificationId, item.routeId);
      if (send?.state !== 'delivered') return { outcome: 'reject', reason: 'send_not_delivered' };
      reference = send.reference;
    }
    let settings: SettingValues;
    try {
      settings = {
        ...provider.settings,
        ...(await this.deps.vault.open(provider.id, this.deps.providers.sealedSecrets(provider.id))),
      };
    } catch (error) {
      if (error instanceof SecretsUnreadableError)
        return { outcome: 'retry', reason: 'provider_secrets_unreadable' };
      throw error;
    }
    let answerLink: AnswerLink | undefined;
    if (
      item.operation !== 'clear' &&
      this.deps.kinds.find((kind) => kind.id === provider.kind)?.answerButtons
    )
      answerLink = await answerLinkFor(this.deps, item.payload, stop);
    return this.deps.deliverer.attempt(
      {
        kindId: provider.kind,
        operation: {
          operation: item.operation,
          event: item.event,
          notification: item.payload,
          idempotencyKey: item.idempotencyKey,
          ...(reference !== undefined && { reference }),
          ...(answerLink !== undefined && { answerLink }),
        },
        settings,
        timeoutMs: this.deps.policy.attemptTimeoutMs,
      },
      stop,
    );
  }

  private sleepUntilDue(now: number): void {
    clearTimeout(this.#timer);
    const candidates = [this.deps.outbox.nextDueAt(now), ...this.#holds.values()].filter(
      (at): at is number => at !== undefined && at > now,
    );
    const wait = Math.min(LONGEST_SLEEP_MS, ...candidates.map((at) => at - now));
    this.#timer = setTimeout(() => this.runSoon(), wait);
    this.#timer.unref();
  }
}
