import type { DeliveryResult, ProviderKind } from '../delivery/provider.js';
import type { Logger } from '../log/logger.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { Followable, FollowUpStore } from '../store/follow-up-store.js';
import type { ProviderRecord, ProviderStore } from '../store/provider-store.js';
import type { Clock } from './clock.js';
import { pause } from './pause.js';

/**
 * How long the broker waits after one round of asking before the next: Pushover asks for its receipts
 * to be polled no faster than once every 5 s (pushover.net/api/receipts), and each send is asked at
 * most once a round, so two questions about one send are always at least this far apart.
 */
export const FOLLOW_UP_INTERVAL_MS = 5000;
/** The time-out of one question, as a delivery attempt's. */
const QUESTION_TIMEOUT_MS = 15_000;

export interface FollowUpsDeps {
  store: FollowUpStore;
  providers: ProviderStore;
  kinds: readonly ProviderKind[];
  vault: SecretVault;
  clock: Clock;
  log: Logger;
}

/**
 * Asks the providers whose kind can say later what became of a send (Pushover's emergency receipts)
 * about the delivered sends of active notifications, and records when the person saw one on the phone
 * (shown on the outbox item) or when it is over unseen. A refusal of the credentials is shown as the
 * provider's last result (its health), once per reason in the log.
 */
export class FollowUps {
  readonly #controller = new AbortController();
  readonly #refused = new Map<string, string>();
  #running: Promise<void> | undefined;

  constructor(private readonly deps: FollowUpsDeps) {}

  start(): void {
    this.#running ??= this.loop().catch((error: unknown) => {
      this.deps.log.error(`follow-ups stopped (${(error as Error).name})`);
    });
  }

  async stop(): Promise<void> {
    this.#controller.abort();
    await this.#running;
  }

  private async loop(): Promise<void> {
    const signal = this.#controller.signal;
    while (!signal.aborted) {
      await pause(FOLLOW_UP_INTERVAL_MS, signal);
      if (!signal.aborted) await this.round(signal);
    }
  }

  private async round(signal: AbortSignal): Promise<void> {
    const providers = new Map(
      this.deps.providers
        .list()
        .filter((provider) => provider.enabled && this.kindOf(provider)?.followUp !== undefined)
        .map((provider) => [provider.id, provider]),
    );
    const open = this.deps.store.open(new Set(providers.keys()));
    for (const [providerId, provider] of providers) {
      const items = open.filter((item) => item.providerId === providerId);
      if (items.length > 0 && !signal.aborted) await this.ask(provider, items, signal);
    }
  }

  private kindOf(provider: ProviderRecord): ProviderKind | undefined {
    return this.deps.kinds.find((kind) => kind.id === provider.kind);
  }

  private async ask(provider: ProviderRecord, items: Followable[], signal: AbortSignal): Promise<void> {
    const kind = this.kindOf(provider)!;
    let secrets: Record<string, string>;
    try {
      secrets = await this.deps.vault.open(provider.id, this.deps.providers.sealedSecrets(provider.id));
    } catch (error) {
      if (error instanceof SecretsUnreadableError) return;
      throw error;
    }
    const settings = { ...provider.settings, ...secrets };
    for (const item of items) {
      if (signal.aborted) return;
      const started = this.deps.clock();
      const answer = await kind.followUp!(item.reference, {
        settings,
        signal: AbortSignal.any([signal, AbortSignal.timeout(QUESTION_TIMEOUT_MS)]),
      });
      if (answer.kind === 'seen') {
        this.deps.store.record(item.seq, {
          state: 'seen',
          at: answer.at,
          ...(answer.device && { device: answer.device }),
        });
        const where = answer.device === undefined ? '' : ` (${answer.device})`;
        this.deps.log.info(`${kind.id}: notification ${item.notificationId} seen on the phone${where}`);
      } else if (answer.kind === 'over') {
        this.deps.store.record(item.seq, { state: 'over' });
      } else if (answer.kind === 'failed') {
        // One failure says enough about this provider for this round: its other sends wait for the next.
        this.failed(provider, answer.result, started);
        return;
      }
    }
    this.#refused.delete(provider.id);
  }

  private failed(provider: ProviderRecord, result: DeliveryResult, started: number): void {
    if (result.outcome !== 'reject') return;
    const now = this.deps.clock();
    this.deps.providers.recordResult(provider.id, {
      outcome: 'reject',
      reason: result.reason,
      ...(result.status !== undefined && { status: result.status }),
      at: now,
      durationMs: Math.max(0, now - started),
    });
    if (this.#refused.get(provider.id) === result.reason) return;
    this.#refused.set(provider.id, result.reason);
    this.deps.log.warn(
      `${provider.kind}: provider ${provider.id} refused a follow-up question (${result.reason})`,
    );
  }
}
