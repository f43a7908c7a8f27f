import type { Hub } from '../hub.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { People } from '../people.js';
import type { Push } from '../push.js';
import type { Relay } from '../relay.js';
import type { SignInGuard } from '../sign-in-guard.js';
import type { StreamQuota } from './stream-quota.js';

/** What the routes share: the relay, its live hub, its rate limits and how it names its own origin. */
export interface RouteContext {
  relay: Relay;
  people: People;
  /** Each person's devices for phone push, and the relay's VAPID public key. */
  push: Push;
  hub: Hub;
  publicUrl: string | undefined;
  limits: {
    pairing: RateLimiter;
    poll: RateLimiter;
    delivery: RateLimiter;
    signIn: SignInGuard;
    codeAttempts: RateLimiter;
  };
  /** The hash of the one-time setup token while no account exists. */
  setupTokenHash: string | undefined;
  keepAliveMs: number;
  /** Each open live stream's shutdown: it closes with a hint to reconnect. */
  streams: Set<() => void>;
  /** Whether the store is reachable and its schema current (GET /readyz). */
  ready(): Promise<boolean>;
  /** Set once the relay begins to stop: /readyz answers 503 so a balancer sends no more. */
  stopping: boolean;
  /** Open event streams per installation and per session (docs/relay.md, Security). */
  streamQuota: StreamQuota;
}
