import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { parseAgentTokenRequest } from '../domain/agent-token.js';
import { formatTimestamp } from '../domain/notification.js';
import type { Logger } from '../log/logger.js';
import type { AgentTokenRecord, AgentTokenStore } from '../store/agent-token-store.js';
import type { WriteQueue } from '../store/write-queue.js';
import type { Clock } from './clock.js';

/** Last use is written at most this often per token, not on every request of a busy agent. */
const TOUCH_EVERY_MS = 60_000;

/** `nfa_` and 32 random bytes as base64url: recognizable in a file, never guessable. */
const TOKEN_SHAPE = /^nfa_[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A token as the API lists it: never its value or hash. */
export interface AgentTokenView {
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export interface AgentTokensDeps {
  store: AgentTokenStore;
  writes: WriteQueue;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Tokens for agents elsewhere (an SSH host, a container): made once and shown once, kept as their
 * SHA-256 only, found by that hash and compared in fixed time; logged by name, never by value.
 */
export class AgentTokens {
  constructor(private readonly deps: AgentTokensDeps) {}

  /** The new token's value is in the answer and nowhere else. */
  async create(body: unknown): Promise<{ token: string; view: AgentTokenView }> {
    const request = parseAgentTokenRequest(body);
    const now = this.deps.clock();
    const token = `nfa_${randomBytes(32).toString('base64url')}`;
    const record: AgentTokenRecord = {
      name: request.name,
      tokenHash: sha256(token),
      createdAt: now,
      lastUsedAt: null,
      expiresAt: request.expiresInSeconds === undefined ? null : now + request.expiresInSeconds * 1000,
    };
    await this.deps.writes.run(() => {
      const existing = this.deps.store.byName(request.name);
      if (existing && this.#live(existing, now))
        throw new ConflictError(
          `a token named "${request.name}" exists already; revoke it first (notifyctl tokens revoke ${request.name})`,
        );
      if (existing) this.deps.store.remove(existing.name);
      this.deps.store.insert(record);
    });
    this.deps.log.info(`tokens: agent token "${record.name}" created`);
    return { token, view: view(record) };
  }

  /** The name of the live agent token this is; undefined for anything else. Records the use. */
  authenticate(token: string): string | undefined {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const hash = sha256(token);
    const record = this.deps.store.byHash(hash);
    if (!record || !timingSafeEqual(Buffer.from(record.tokenHash), Buffer.from(hash))) return undefined;
    const now = this.deps.clock();
    if (!this.#live(record, now)) return undefined;
    if (record.lastUsedAt === null || now - record.lastUsedAt >= TOUCH_EVERY_MS) {
      this.deps.writes
        .run(() => this.deps.store.touch(record.name, now))
        .catch((error: unknown) =>
          this.deps.log.warn(`tokens: last use of "${record.name}" not stored: ${(error as Error).message}`),
        );
    }
    return record.name;
  }

  /** Every token, expired ones included (so a person sees why an agent stopped), by name. */
  list(): AgentTokenView[] {
    return this.deps.store.list().map(view);
  }

  async revoke(name: string): Promise<void> {
    const removed = await this.deps.writes.run(() => this.deps.store.remove(name));
    if (!removed) throw new NotFoundError(`token "${name}" not found`);
    this.deps.log.info(`tokens: agent token "${name}" revoked`);
  }

  #live(record: AgentTokenRecord, now: number): boolean {
    return record.expiresAt === null || now < record.expiresAt;
  }
}

function view(record: AgentTokenRecord): AgentTokenView {
  return {
    name: record.name,
    createdAt: formatTimestamp(record.createdAt),
    lastUsedAt: record.lastUsedAt === null ? null : formatTimestamp(record.lastUsedAt),
    expiresAt: record.expiresAt === null ? null : formatTimestamp(record.expiresAt),
  };
}
