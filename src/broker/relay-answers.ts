import { readRelayEvent, type RelayEvent } from '../domain/relay/relay-protocol.js';
import { ConflictError, InvalidRequestError, NotFoundError, StaleAnswerError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { OutboxStore } from '../store/outbox-store.js';
import type { ProviderRecord, ProviderStore } from '../store/provider-store.js';
import type { RelayCursorStore } from '../store/relay-cursor-store.js';
import type { RelayStreamEnd, RelayStreamEvent } from '../delivery/providers/relay/event-stream.js';
import type { ListenerHealth } from '../domain/channel-answer.js';
import type { Clock } from './clock.js';
import { ListenerHealthBoard } from './listener-health.js';
import { pause } from './pause.js';
import { RelayDropLog } from './relay-drop-log.js';

/** What the relay's answers and status changes are applied to: the broker's own answer and status paths. */
export interface RelayAnswerSink {
  /**
   * Rejects with ConflictError when already answered, resolved or dismissed, or when the notification
   * left `revision` (the one the person answered) behind.
   */
  answer(notificationId: string, action: string, revision: number): Promise<void>;
  /** Resolves or dismisses the notification if it is still active; otherwise changes nothing. */
  end(notificationId: string, status: 'resolved' | 'dismissed'): Promise<void>;
}

export interface RelayAnswersDeps {
  providers: ProviderStore;
  vault: SecretVault;
  cursors: RelayCursorStore;
  outbox: OutboxStore;
  sink: RelayAnswerSink;
  clock: Clock;
  random: () => number;
  log: Logger;
  /** Reconnect backoff: 1 s doubling to 60 s (docs/relay-protocol.md), with ±20 % jitter. */
  backoff?: { firstMs: number; maxMs: number };
}

const RELAY_KIND = 'relay';
const DEFAULT_BACKOFF = { firstMs: 1000, maxMs: 60_000 };
/** The longest an event waits for the delivery it answers to be recorded: one attempt's time-out, and some. */
const SETTLE_WAIT_MS = 20_000;
/** A credential the keyring cannot open now is tried again after this. */
const SECRETS_RETRY_MS = 60_000;

/** Why a stream ended, as a short code for the providers API (the log line says more). */
function streamReason(end: Exclude<RelayStreamEnd, { kind: 'stopped' }>): string {
  if (end.kind === 'ended') return 'stream_ended';
  if (end.kind === 'refused') return `http_${end.status}`;
  return end.kind === 'overrun' ? 'stream_overrun' : end.reason;
}

interface Follower {
  /** The provider's settings and credential as of its last change: a change restarts the stream. */
  version: number;
  stop(): Promise<void>;
}

/**
 * The answers back (docs/relay-protocol.md "Answers and status back"): for every enabled relay provider,
 * notifyd keeps the relay's event stream open (it never listens on a port itself), resumes it from the
 * last event applied, and reconnects with backoff. An answer or status change is applied once, and only
 * for the lifecycle this broker delivered last: an answer to an older question never answers a newer one.
 */
export class RelayAnswers {
  readonly #followers = new Map<string, Follower>();
  readonly #drops: RelayDropLog;
  readonly #health: ListenerHealthBoard;
  #stopped = false;

  constructor(private readonly deps: RelayAnswersDeps) {
    this.#drops = new RelayDropLog(deps.log);
    this.#health = new ListenerHealthBoard(deps.clock);
  }

  /** How the event stream of an enabled relay provider is doing, for `listening` in the providers API. */
  health(providerId: string): ListenerHealth | undefined {
    return this.#health.get(providerId);
  }

  /** Providers changed: start streams for newly enabled relays, restart changed ones, stop the rest. */
  sync(): void {
    if (this.#stopped) return;
    const wanted = new Map(
      this.deps.providers
        .list()
        .filter((provider) => provider.kind === RELAY_KIND && provider.enabled)
        .map((provider) => [provider.id, provider]),
    );
    for (const [id, follower] of this.#followers) {
      const provider = wanted.get(id);
      if (provider === undefined || provider.updatedAt !== follower.version) {
        this.#followers.delete(id);
        this.#health.delete(id);
        void follower.stop();
      }
    }
    for (const [id, provider] of wanted) {
      if (!this.#followers.has(id)) this.#followers.set(id, this.follow(provider));
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const followers = [...this.#followers.values()];
    this.#followers.clear();
    await Promise.all(followers.map((follower) => follower.stop()));
    this.#drops.flush();
  }

  private follow(provider: ProviderRecord): Follower {
    const controller = new AbortController();
    this.#health.set(provider.id, { state: 'connecting' });
    const done = this.keepFollowing(provider, controller.signal);
    return {
      version: provider.updatedAt,
      stop: async () => {
        controller.abort();
        await done;
      },
    };
  }

  /**
   * An unexpected error (a database error, say) is most often passing: following starts again after the
   * back-off, so answers resume by themselves instead of waiting for the provider to be changed.
   */
  private async keepFollowing(provider: ProviderRecord, signal: AbortSignal): Promise<void> {
    const backoff = this.deps.backoff ?? DEFAULT_BACKOFF;
    let delay = backoff.firstMs;
    while (!signal.aborted) {
      try {
        await this.run(provider, signal);
        return;
      } catch (error) {
        const name = (error as Error).name;
        this.#health.set(provider.id, { state: 'retrying', reason: `error_${name}` });
        this.deps.log.error(
          `relay: answers of provider ${provider.id} failed (${name}); trying again in ${delay} ms`,
        );
        await pause(delay, signal);
        delay = Math.min(backoff.maxMs, delay * 2);
      }
    }
  }

  private async run(provider: ProviderRecord, signal: AbortSignal): Promise<void> {
    const { followRelayEvents } = await import('../delivery/providers/relay/event-stream.js');
    const backoff = this.deps.backoff ?? DEFAULT_BACKOFF;
    let delay = backoff.firstMs;
    const where = `relay: provider ${provider.id}`;
    while (!signal.aborted) {
      let credential: string | undefined;
      try {
        credential = (
          await this.deps.vault.open(provider.id, this.deps.providers.sealedSecrets(provider.id))
        )['credential'];
      } catch (error) {
        if (!(error instanceof SecretsUnreadableError)) throw error;
        this.#health.set(provider.id, { state: 'retrying', reason: 'secrets_unreadable' });
        this.deps.log.warn(`${where}: the credential cannot be decrypted; answers wait for the keyring`);
        await pause(SECRETS_RETRY_MS, signal);
        continue;
      }
      if (credential === undefined) {
        this.#health.set(provider.id, { state: 'refused', reason: 'credential_missing' });
        this.deps.log.warn(`${where}: has no credential; pair it again with notify relay pair`);
        return;
      }
      const end: RelayStreamEnd = await followRelayEvents({
        url: String(provider.settings['url'] ?? ''),
        allowPrivate: provider.settings['allowPrivate'] === true,
        credential,
        ...this.cursor(provider.id),
        signal,
        onOpen: () => {
          delay = backoff.firstMs;
          this.#health.set(provider.id, { state: 'listening' });
          this.deps.log.info(`${where}: event stream open, answers from the relay are applied`);
        },
        onEvent: (event) => this.apply(provider.id, event),
      });
      if (end.kind === 'stopped') return;
      if (end.kind === 'refused' && (end.status === 401 || end.status === 403)) {
        this.#health.set(provider.id, { state: 'refused', reason: `http_${end.status}` });
        this.deps.log.warn(
          `${where}: the relay refuses the credential (HTTP ${end.status}, revoked?); no more answers until it is paired again`,
        );
        return;
      }
      const why =
        end.kind === 'ended'
          ? 'ended'
          : end.kind === 'refused'
            ? `http_${end.status}`
            : end.kind === 'overrun'
              ? `closed: the relay sent ${end.limit}`
              : end.reason;
      this.#health.set(provider.id, { state: 'retrying', reason: streamReason(end) });
      const wait = Math.round(delay * (0.8 + 0.4 * this.deps.random()));
      this.deps.log.warn(`${where}: event stream ${why}; reconnecting in ${wait} ms`);
      await pause(wait, signal);
      delay = Math.min(backoff.maxMs, delay * 2);
    }
  }

  private cursor(providerId: string): { lastEventId?: string } {
    const last = this.deps.cursors.lastEventId(providerId);
    return last === undefined ? {} : { lastEventId: last };
  }

  /** Applies one event, then records its id: a crash in between replays it, and the replay is a 409. */
  private async apply(providerId: string, event: RelayStreamEvent): Promise<void> {
    const parsed = readRelayEvent(event.type, event.data);
    if (parsed !== undefined) await this.applyEvent(providerId, parsed);
    if (event.id !== undefined) this.deps.cursors.save(providerId, event.id, this.deps.clock());
  }

  /**
   * Whether the event names the lifecycle the relay confirmed last. While a delivery of the
   * notification to this relay is under way (pending, in flight, or still in the intake), what is
   * recorded may be older than what the relay already shows: a reopen the relay took (lifecycle 2) but
   * whose answer is not recorded yet leaves lifecycle 1 recorded, and an answer to lifecycle 1 must not
   * pass for current. So the comparison waits until nothing is under way; past the wait it drops.
   */
  private async deliveredLifecycle(providerId: string, event: RelayEvent, where: string): Promise<boolean> {
    const deadline = this.deps.clock() + SETTLE_WAIT_MS;
    let waiting = false;
    while (this.deps.outbox.hasUnsettled(event.notificationId, providerId)) {
      if (this.deps.clock() > deadline) return false;
      if (!waiting) {
        waiting = true;
        this.deps.log.info(`${where} (lifecycle ${event.lifecycle}) waits for the delivery under way`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.deps.outbox
      .deliveredReferences(event.notificationId, providerId)
      .includes(String(event.lifecycle));
  }

  private async applyEvent(providerId: string, event: RelayEvent): Promise<void> {
    const where = `relay: provider ${providerId}: ${event.kind} for notification ${event.notificationId}`;
    if (!(await this.deliveredLifecycle(providerId, event, where))) {
      this.#drops.dropped(
        'info',
        `${where} (lifecycle ${event.lifecycle}) dropped: not the lifecycle delivered there`,
      );
      return;
    }
    if (event.kind === 'answer' && event.revision === undefined) {
      this.#drops.dropped(
        'warn',
        `${where} dropped: the relay did not say which revision the person answered; update notify-relay`,
      );
      return;
    }
    try {
      if (event.kind === 'answer')
        await this.deps.sink.answer(event.notificationId, event.action, event.revision!);
      else await this.deps.sink.end(event.notificationId, event.status);
    } catch (error) {
      if (error instanceof ConflictError) {
        // Already answered, resolved or dismissed here: the first answer won, as it should. An answer to
        // what the phone showed before the notification changed approves nothing: it says so once.
        if (error instanceof StaleAnswerError)
          this.#drops.dropped('info', `${where} dropped: ${error.message}`);
        return;
      }
      if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
        this.#drops.dropped(
          'warn',
          `${where} dropped: ${error instanceof NotFoundError ? 'no such notification' : error.message}`,
        );
        return;
      }
      throw error;
    }
  }
}
