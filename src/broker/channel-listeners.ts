import type { ListenEnd, ProviderKind } from '../delivery/provider.js';
import type { Action, Surface } from '../domain/answers.js';
import { SURFACES } from '../domain/answers.js';
import type { ChannelAnswer, ChannelAnswerOutcome, ListenerHealth } from '../domain/channel-answer.js';
import { ConflictError, InvalidRequestError, NotFoundError, StaleAnswerError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { ProviderRecord, ProviderStore } from '../store/provider-store.js';
import type { RelayCursorStore } from '../store/relay-cursor-store.js';
import type { Clock } from './clock.js';
import { ListenerHealthBoard } from './listener-health.js';
import { pause } from './pause.js';

/** Where a channel's answers are applied: the broker's own answer path, and the actions it offers. */
export interface ChannelAnswerSink {
  /** Throws as the answer API does: NotFound, Conflict (answered, ended), StaleAnswer, InvalidRequest. */
  answer(notificationId: string, action: string, surface: Surface, revision: number): Promise<void>;
  /** The actions the notification offers now; undefined when there is no such notification. */
  actionsOf(notificationId: string): readonly Action[] | undefined;
}

export interface ChannelListenersDeps {
  providers: ProviderStore;
  kinds: readonly ProviderKind[];
  vault: SecretVault;
  cursors: RelayCursorStore;
  sink: ChannelAnswerSink;
  clock: Clock;
  random: () => number;
  log: Logger;
  /** Reconnect backoff, as the relay's: 1 s doubling to 60 s, with ±20 % jitter. */
  backoff?: { firstMs: number; maxMs: number };
}

const DEFAULT_BACKOFF = { firstMs: 1000, maxMs: 60_000 };
const SECRETS_RETRY_MS = 60_000;

interface Listener {
  version: number;
  stop(): Promise<void>;
}

/**
 * Runs `listen` of every enabled provider whose kind carries answers back (Telegram's long poll,
 * Slack's socket, ...): one loop per provider, restarted when the provider changes, stopped when it is
 * disabled or deleted, reconnecting with backoff and jitter. Answers are applied through the broker's
 * answer path with the provider kind as the surface, so the first answer wins across all surfaces and
 * an answer to a revision the notification left behind approves nothing.
 */
export class ChannelListeners {
  readonly #listeners = new Map<string, Listener>();
  readonly #health: ListenerHealthBoard;
  #stopped = false;

  constructor(private readonly deps: ChannelListenersDeps) {
    this.#health = new ListenerHealthBoard(deps.clock);
  }

  /** Providers changed: start newly enabled listeners, restart changed ones, stop the rest. */
  sync(): void {
    if (this.#stopped) return;
    const wanted = new Map(
      this.deps.providers
        .list()
        .filter((provider) => provider.enabled && this.kindOf(provider)?.listen !== undefined)
        .map((provider) => [provider.id, provider]),
    );
    for (const [id, listener] of this.#listeners) {
      const provider = wanted.get(id);
      if (provider === undefined || provider.updatedAt !== listener.version) {
        this.#listeners.delete(id);
        this.#health.delete(id);
        void listener.stop();
      }
    }
    for (const [id, provider] of wanted) {
      if (!this.#listeners.has(id)) this.#listeners.set(id, this.start(provider));
    }
  }

  /** The listener's health, for providers whose kind listens and that are enabled. */
  health(providerId: string): ListenerHealth | undefined {
    return this.#health.get(providerId);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const listeners = [...this.#listeners.values()];
    this.#listeners.clear();
    await Promise.all(listeners.map((listener) => listener.stop()));
  }

  private kindOf(provider: ProviderRecord): ProviderKind | undefined {
    return this.deps.kinds.find((kind) => kind.id === provider.kind);
  }

  private start(provider: ProviderRecord): Listener {
    const controller = new AbortController();
    this.setHealth(provider.id, { state: 'connecting' });
    const done = this.run(provider, controller.signal).catch((error: unknown) => {
      this.setHealth(provider.id, { state: 'retrying', reason: `error_${(error as Error).name}` });
      this.deps.log.error(
        `${provider.kind}: answers of provider ${provider.id} stopped (${(error as Error).name})`,
      );
    });
    return {
      version: provider.updatedAt,
      stop: async () => {
        controller.abort();
        await done;
      },
    };
  }

  private setHealth(providerId: string, health: Omit<ListenerHealth, 'since'>): void {
    this.#health.set(providerId, health);
  }

  private async run(provider: ProviderRecord, signal: AbortSignal): Promise<void> {
    const kind = this.kindOf(provider)!;
    const backoff = this.deps.backoff ?? DEFAULT_BACKOFF;
    const where = `${kind.id}: provider ${provider.id}`;
    let delay = backoff.firstMs;
    let lastReason: string | undefined;
    while (!signal.aborted) {
      let secrets: Record<string, string>;
      try {
        secrets = await this.deps.vault.open(provider.id, this.deps.providers.sealedSecrets(provider.id));
      } catch (error) {
        if (!(error instanceof SecretsUnreadableError)) throw error;
        this.setHealth(provider.id, { state: 'retrying', reason: 'secrets_unreadable' });
        this.deps.log.warn(`${where}: the secrets cannot be decrypted; answers wait for the keyring`);
        await pause(SECRETS_RETRY_MS, signal);
        continue;
      }
      const cursor = this.deps.cursors.lastEventId(provider.id);
      const end: ListenEnd = await kind.listen!({
        settings: { ...provider.settings, ...secrets },
        signal,
        ...(cursor !== undefined && { cursor }),
        saveCursor: (next) => this.deps.cursors.save(provider.id, next, this.deps.clock()),
        connected: () => {
          delay = backoff.firstMs;
          lastReason = undefined;
          this.setHealth(provider.id, { state: 'listening' });
        },
        answer: (answer) => this.apply(kind.id, answer),
      });
      if (end.kind === 'stopped' || signal.aborted) return;
      if (end.kind === 'refused') {
        this.setHealth(provider.id, { state: 'refused', reason: end.reason });
        this.deps.log.warn(
          `${where}: the service refuses the credentials (${end.reason}); no answers until the provider is changed`,
        );
        return;
      }
      this.setHealth(provider.id, { state: 'retrying', reason: end.reason });
      const wait = end.retryAfterMs ?? Math.round(delay * (0.8 + 0.4 * this.deps.random()));
      // One line per change of reason: a service that stays down does not flood the log.
      if (end.reason !== lastReason) {
        this.deps.log.warn(`${where}: listening failed (${end.reason}); retrying in ${wait} ms`);
        lastReason = end.reason;
      }
      await pause(wait, signal);
      delay = Math.min(backoff.maxMs, delay * 2);
    }
  }

  private async apply(kindId: string, answer: ChannelAnswer): Promise<ChannelAnswerOutcome> {
    const surface = (SURFACES as readonly string[]).includes(kindId) ? (kindId as Surface) : undefined;
    if (surface === undefined) return { kind: 'unknown', message: 'This channel cannot answer.' };
    const actions = this.deps.sink.actionsOf(answer.notificationId);
    if (actions === undefined) return { kind: 'unknown', message: 'This request is gone.' };
    const action =
      'index' in answer.choice
        ? actions[answer.choice.index]?.id
        : actions.find((candidate) => candidate.id === (answer.choice as { id: string }).id)?.id;
    if (action === undefined) return { kind: 'unknown', message: 'This request does not offer that answer.' };
    try {
      await this.deps.sink.answer(answer.notificationId, action, surface, answer.revision);
      this.deps.log.info(`${kindId}: answer ${action} to notification ${answer.notificationId} applied`);
      return { kind: 'applied', action };
    } catch (error) {
      if (error instanceof StaleAnswerError) return { kind: 'stale', message: error.message };
      if (error instanceof ConflictError) return { kind: 'closed', message: error.message };
      if (error instanceof NotFoundError) return { kind: 'unknown', message: 'This request is gone.' };
      if (error instanceof InvalidRequestError) return { kind: 'unknown', message: error.message };
      throw error;
    }
  }
}
