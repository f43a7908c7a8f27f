import {
  CONNECTION_TIMEOUT_MS,
  connectionView,
  SECRETS_UNREADABLE,
  type ConnectionView,
} from '../delivery/connection-check.js';
import type { DeliveryResult, ProviderKind } from '../delivery/provider.js';
import { testOperation, testOutcome, type TestOutcome } from '../delivery/test-action.js';
import { validateSettings } from '../domain/delivery/provider-settings.js';
import { InvalidRequestError, NotFoundError } from '../domain/errors.js';
import { rejectUnknownFields } from '../domain/fields.js';
import { formatTimestamp } from '../domain/notification.js';
import type { RetryPolicy } from '../domain/delivery/retry-policy.js';
import { SecretsUnreadableError } from '../secrets/secret-box.js';
import type { SecretVault } from '../secrets/secret-vault.js';
import type { LastResult, ProviderRecord, ProviderStore } from '../store/provider-store.js';
import type { ListenerHealth } from '../domain/channel-answer.js';
import type { Clock } from './clock.js';
import { runAttempt } from './deliverers/attempt.js';
import { characterCount } from '../domain/text.js';

export interface ProviderServiceDeps {
  providers: ProviderStore;
  kinds: readonly ProviderKind[];
  vault: SecretVault;
  clock: Clock;
  newId: () => string;
  policy: RetryPolicy;
  /** Told when providers change, so the enqueue reads them again. */
  changed: () => void;
  /** How an enabled provider that carries answers back is listening, if it is. */
  listenerHealth?: (providerId: string) => ListenerHealth | undefined;
}

/** A provider as the API shows it: secrets only say whether they are set. */
export interface ProviderView {
  id: string;
  kind: string;
  name: string;
  enabled: boolean;
  settings: Record<string, string | number | boolean>;
  secrets: Record<string, boolean>;
  health: 'ok' | 'failing' | 'unknown';
  lastResult: (Omit<LastResult, 'at'> & { at: string }) | null;
  /** Of an enabled provider that carries answers back: how its listening goes. */
  listening?: Omit<ListenerHealth, 'since'> & { since: string };
  createdAt: string;
  updatedAt: string;
}

const NAME_MAX = 100;

/** Provider management: kinds, create (disabled), update, delete, enable/disable, test. */
export class ProviderService {
  constructor(private readonly deps: ProviderServiceDeps) {}

  kinds(): readonly ProviderKind[] {
    return this.deps.kinds;
  }

  list(): ProviderView[] {
    return this.deps.providers.list().map((record) => this.view(record));
  }

  get(id: string): ProviderView {
    return this.view(this.record(id));
  }

  async create(body: unknown): Promise<ProviderView> {
    const input = objectOf(body);
    // As every create does: a misspelt field is refused rather than silently left out. `enabled` is
    // taken and ignored like the routes' (a new provider starts disabled, spec "Outbound delivery" 4).
    rejectUnknownFields(input, ['kind', 'name', 'settings', 'enabled']);
    const kind = this.kindOf(input['kind']);
    const name = nameOf(input['name'] ?? kind.title);
    const validated = validateSettings(kind.settings, input['settings']);
    const now = this.deps.clock();
    const id = this.deps.newId();
    this.deps.providers.save(
      {
        id,
        kind: kind.id,
        name,
        enabled: false,
        settings: validated.settings,
        createdAt: now,
        updatedAt: now,
      },
      await this.deps.vault.sealAll(id, validated.secrets),
    );
    this.deps.changed();
    return this.get(id);
  }

  async update(id: string, body: unknown): Promise<ProviderView> {
    const input = objectOf(body);
    const current = this.record(id);
    const kind = this.kindOf(current.kind);
    for (const field of Object.keys(input)) {
      if (!['name', 'settings', 'enabled'].includes(field)) {
        throw new InvalidRequestError(`${field} cannot be changed; send name, settings or enabled`);
      }
    }
    const validated = validateSettings(kind.settings, input['settings'], current);
    const enabled = input['enabled'] === undefined ? current.enabled : booleanOf(input['enabled'], 'enabled');
    this.deps.providers.save(
      {
        ...current,
        name: input['name'] === undefined ? current.name : nameOf(input['name']),
        enabled,
        settings: validated.settings,
        updatedAt: this.deps.clock(),
      },
      await this.deps.vault.sealAll(id, validated.secrets),
    );
    this.deps.providers.removeSecrets(id, validated.clearSecrets);
    this.deps.changed();
    return this.get(id);
  }

  /**
   * Settings a kind declares secret that are stored in clear (the ntfy topic, stored before it was
   * declared secret) are sealed and taken out of the plain settings, so the API never returns them.
   * Run at start; the vault is opened only when there is something to seal.
   */
  async sealPlainSecrets(): Promise<number> {
    let sealed = 0;
    for (const record of this.deps.providers.list()) {
      const kind = this.deps.kinds.find((candidate) => candidate.id === record.kind);
      const plain = new Map<string, string>();
      for (const declaration of kind?.settings ?? []) {
        const value = record.settings[declaration.name];
        if (declaration.secret && value !== undefined) plain.set(declaration.name, String(value));
      }
      if (plain.size === 0) continue;
      const settings = Object.fromEntries(
        Object.entries(record.settings).filter(([name]) => !plain.has(name)),
      );
      this.deps.providers.save({ ...record, settings }, await this.deps.vault.sealAll(record.id, plain));
      sealed += 1;
    }
    if (sealed > 0) this.deps.changed();
    return sealed;
  }

  setEnabled(id: string, enabled: boolean): ProviderView {
    if (!this.deps.providers.setEnabled(id, enabled, this.deps.clock()))
      throw new NotFoundError('provider not found');
    this.deps.changed();
    return this.get(id);
  }

  delete(id: string): void {
    if (!this.deps.providers.delete(id, this.deps.clock())) throw new NotFoundError('provider not found');
    this.deps.changed();
  }

  /**
   * The Test action: the fixed test notification through the provider's own adapter, enabled or not,
   * cut at the attempt time-out like a real delivery, and recorded as the provider's last result.
   */
  async test(id: string): Promise<TestOutcome> {
    const record = this.record(id);
    const kind = this.kindOf(record.kind);
    const now = this.deps.clock();
    const result = await this.attemptTest(record, kind, now);
    this.deps.providers.recordResult(id, {
      outcome: result.outcome,
      ...(result.outcome !== 'delivered' && { reason: result.reason }),
      ...(result.status !== undefined && { status: result.status }),
      at: this.deps.clock(),
      durationMs: this.deps.clock() - now,
    });
    return testOutcome(kind, result);
  }

  /**
   * The connection check of kinds that have one (the relay's GET /v1/installation): asked with the
   * provider's secrets, which stay in the broker; changes nothing, and is not its last result.
   */
  async connection(id: string): Promise<ConnectionView> {
    const record = this.record(id);
    const kind = this.kindOf(record.kind);
    const check = kind.connection;
    if (check === undefined) {
      throw new InvalidRequestError(
        `a ${kind.title} provider has no connection check; use POST /v1/providers/${id}/test instead`,
      );
    }
    let secrets: Record<string, string>;
    try {
      secrets = await this.deps.vault.open(record.id, this.deps.providers.sealedSecrets(record.id));
    } catch (error) {
      if (!(error instanceof SecretsUnreadableError)) throw error;
      return SECRETS_UNREADABLE;
    }
    const signal = AbortSignal.timeout(CONNECTION_TIMEOUT_MS);
    const result = await check
      .call(kind, { settings: { ...record.settings, ...secrets }, signal })
      .catch((error: unknown) => ({
        result: {
          outcome: 'retry' as const,
          reason: signal.aborted
            ? ('timeout' as const)
            : (`error_${(error as Error).name ?? 'unknown'}` as const),
        },
      }));
    return connectionView(kind, result);
  }

  /** Secrets that cannot be decrypted end the test as they end a delivery: nothing is sent. */
  private async attemptTest(
    record: ProviderRecord,
    kind: ProviderKind,
    now: number,
  ): Promise<DeliveryResult> {
    let secrets: Record<string, string>;
    try {
      secrets = await this.deps.vault.open(record.id, this.deps.providers.sealedSecrets(record.id));
    } catch (error) {
      if (!(error instanceof SecretsUnreadableError)) throw error;
      return { outcome: 'retry', reason: 'provider_secrets_unreadable' };
    }
    return runAttempt(
      kind,
      testOperation(record.id, now),
      { ...record.settings, ...secrets },
      this.deps.policy.attemptTimeoutMs,
    );
  }

  private record(id: string): ProviderRecord {
    const record = this.deps.providers.get(id);
    if (!record) throw new NotFoundError('provider not found');
    return record;
  }

  private kindOf(id: unknown): ProviderKind {
    const kind = this.deps.kinds.find((candidate) => candidate.id === id);
    if (kind) return kind;
    const known = this.deps.kinds.map((candidate) => candidate.id).join(', ') || 'none in this build';
    throw new InvalidRequestError(
      typeof id === 'string'
        ? `unknown provider kind "${id}" (known: ${known})`
        : `kind is required (known: ${known})`,
    );
  }

  private view(record: ProviderRecord): ProviderView {
    const kind = this.deps.kinds.find((candidate) => candidate.id === record.kind);
    const secrets: Record<string, boolean> = {};
    const settings = { ...record.settings };
    for (const declaration of kind?.settings ?? []) {
      if (!declaration.secret) continue;
      // A value stored in clear before the setting was declared secret is never shown either.
      secrets[declaration.name] =
        record.secretNames.includes(declaration.name) || declaration.name in settings;
      delete settings[declaration.name];
    }
    const last = record.lastResult;
    const listening = this.deps.listenerHealth?.(record.id);
    return {
      id: record.id,
      kind: record.kind,
      name: record.name,
      enabled: record.enabled,
      settings,
      secrets,
      health: !last ? 'unknown' : last.outcome === 'delivered' ? 'ok' : 'failing',
      lastResult: last ? { ...last, at: formatTimestamp(last.at) } : null,
      ...(listening && { listening: { ...listening, since: formatTimestamp(listening.since) } }),
      createdAt: formatTimestamp(record.createdAt),
      updatedAt: formatTimestamp(record.updatedAt),
    };
  }
}

export function objectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export function booleanOf(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new InvalidRequestError(`${field} must be true or false`);
  return value;
}

function nameOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || characterCount(value.trim()) > NAME_MAX) {
    throw new InvalidRequestError(`name must be 1-${NAME_MAX} characters`);
  }
  return value.trim();
}
