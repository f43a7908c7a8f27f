import { createHash, randomBytes } from 'node:crypto';
import { formatTimestamp } from '../domain/notification.js';
import type { Logger } from '../log/logger.js';
import type { WebSessionRecord, WebSessionStore } from '../store/web-session-store.js';
import type { WriteQueue } from '../store/write-queue.js';
import type { Clock } from './clock.js';

/** A sign-in link works once, within this long of being made (issue 21). */
export const LOGIN_CODE_TTL_MS = 60_000;
/** A session unused this long ends. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** A session ends this long after sign-in, however much it is used. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Last use is written at most this often per session, not on every request of the page. */
const TOUCH_EVERY_MS = 60_000;
/** Links asked for and not used; a flood of asks forgets the oldest instead of growing without end. */
const MAX_OPEN_CODES = 100;
const USER_AGENT_CHARACTERS = 300;

/** A session secret or a login code: 32 random bytes as base64url. */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * What the token's fingerprint is made with. Sessions made while their secret lived in a cookie
 * (before issue 29) carry another fingerprint, so they end at the first start of this version: the
 * browser sent those secrets to every port of 127.0.0.1.
 */
const FINGERPRINT_CONTEXT = 'notify web session token, secret kept by the page';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const randomSecret = () => randomBytes(32).toString('base64url');

export interface SignedIn {
  /** The session's secret: shown to the browser once, stored only as its hash. */
  secret: string;
  session: WebSessionRecord;
}

/** A session as the API shows it: times in ISO 8601, never its secret. */
export interface WebSessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  idleExpiresAt: string;
  userAgent: string | null;
}

export interface WebSessionsDeps {
  store: WebSessionStore;
  writes: WriteQueue;
  clock: Clock;
  /** The authToken in force: a session lives only as long as the token it was made under. */
  token: () => string;
  log: Logger;
  /**
   * A login code stopped working (used, expired, forgotten), given as the SHA-256 hex of the code:
   * its launcher file, if one was written, can go.
   */
  codeEnded?: (hashOfCode: string) => void;
}

/**
 * Signing in to the web page without the token in the browser: one-time login codes (kept hashed, in
 * memory, 60 s) exchanged for a session whose secret the API accepts as it accepts the token. Sessions
 * are kept hashed in the database, so they survive a restart; they end idle, at their absolute end,
 * when revoked, and all at once when the token changes.
 */
export class WebSessions {
  /** Hash of each open code → when it stops working. */
  readonly #codes = new Map<string, number>();
  #fingerprintOf = { token: '', fingerprint: '' };

  constructor(private readonly deps: WebSessionsDeps) {}

  mintLoginCode(): { code: string; expiresAt: number } {
    const now = this.deps.clock();
    for (const [hash, expiresAt] of this.#codes) if (expiresAt <= now) this.#forget(hash);
    if (this.#codes.size >= MAX_OPEN_CODES) this.#forget(this.#codes.keys().next().value!);
    const code = randomSecret();
    const expiresAt = now + LOGIN_CODE_TTL_MS;
    const hash = sha256(code);
    this.#codes.set(hash, expiresAt);
    // Its launcher file goes when it expires, not only when the next code is made.
    setTimeout(() => this.#forget(hash), LOGIN_CODE_TTL_MS).unref();
    return { code, expiresAt };
  }

  /** Uses up the code; undefined when it is unknown, used or expired. */
  async signIn(code: string, userAgent: string | undefined): Promise<SignedIn | undefined> {
    if (!SECRET_SHAPE.test(code)) return undefined;
    const hash = sha256(code);
    const expiresAt = this.#codes.get(hash);
    this.#forget(hash);
    const now = this.deps.clock();
    if (expiresAt === undefined || expiresAt <= now) return undefined;
    const secret = randomSecret();
    const session: WebSessionRecord = {
      id: randomBytes(12).toString('base64url'),
      secretHash: sha256(secret),
      tokenFingerprint: this.#tokenFingerprint(),
      userAgent: userAgent === undefined ? null : [...userAgent].slice(0, USER_AGENT_CHARACTERS).join(''),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
    };
    await this.deps.writes.run(() => {
      this.deps.store.removeEnded(now, now - SESSION_IDLE_MS);
      this.deps.store.insert(session);
    });
    this.deps.log.info(`web page: session ${session.id} signed in`);
    return { secret, session };
  }

  /** The live session this secret belongs to, found by the secret's hash; records the use. */
  authenticate(secret: string): WebSessionRecord | undefined {
    if (!SECRET_SHAPE.test(secret)) return undefined;
    const session = this.deps.store.bySecretHash(sha256(secret));
    if (!session) return undefined;
    const now = this.deps.clock();
    if (!this.#live(session, now)) {
      this.#write(() => this.deps.store.remove(session.id));
      return undefined;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) {
      this.#write(() => this.deps.store.touch(session.id, now));
      session.lastSeenAt = now;
    }
    return session;
  }

  /** Live sessions, newest first. */
  list(): WebSessionRecord[] {
    const now = this.deps.clock();
    return this.deps.store.list().filter((session) => this.#live(session, now));
  }

  async revoke(id: string): Promise<boolean> {
    const removed = await this.deps.writes.run(() => this.deps.store.remove(id));
    if (removed) this.deps.log.info(`web page: session ${id} revoked`);
    return removed;
  }

  /** Ends every session and forgets every open login code. */
  async revokeAll(): Promise<number> {
    this.forgetCodes();
    const removed = await this.deps.writes.run(() => this.deps.store.removeAll());
    this.deps.log.info(`web page: all ${removed} session(s) revoked`);
    return removed;
  }

  /**
   * The token changed (config.json edited while running, or before this start): sessions and codes
   * made under another token end, and so do sessions of a version that kept the secret in a cookie.
   */
  async tokenChanged(): Promise<void> {
    const fingerprint = this.#tokenFingerprint();
    this.forgetCodes();
    const removed = await this.deps.writes.run(() => this.deps.store.removeOtherTokens(fingerprint));
    if (removed > 0) this.deps.log.info(`web page: ended ${removed} session(s) made under another token`);
  }

  /** Every open code stops working; a stopping broker calls it so that no launcher stays behind. */
  forgetCodes(): void {
    for (const hash of [...this.#codes.keys()]) this.#forget(hash);
  }

  view(session: WebSessionRecord): WebSessionView {
    return {
      id: session.id,
      createdAt: formatTimestamp(session.createdAt),
      lastSeenAt: formatTimestamp(session.lastSeenAt),
      expiresAt: formatTimestamp(session.expiresAt),
      idleExpiresAt: formatTimestamp(idleEnd(session)),
      userAgent: session.userAgent,
    };
  }

  #forget(hash: string): void {
    if (this.#codes.delete(hash)) this.deps.codeEnded?.(hash);
  }

  #live(session: WebSessionRecord, now: number): boolean {
    return session.tokenFingerprint === this.#tokenFingerprint() && now < idleEnd(session);
  }

  #tokenFingerprint(): string {
    const token = this.deps.token();
    if (this.#fingerprintOf.token !== token)
      this.#fingerprintOf = { token, fingerprint: sha256(`${FINGERPRINT_CONTEXT}\0${token}`) };
    return this.#fingerprintOf.fingerprint;
  }

  /** A write nobody waits for: its failure is logged, and the request it came with goes on. */
  #write(work: () => unknown): void {
    this.deps.writes
      .run(work)
      .catch((error: unknown) =>
        this.deps.log.warn(`web page: a session change was not stored: ${(error as Error).message}`),
      );
  }
}

/** When the session ends if unused from now: idle end, never past its absolute end. */
function idleEnd(session: WebSessionRecord): number {
  return Math.min(session.lastSeenAt + SESSION_IDLE_MS, session.expiresAt);
}
