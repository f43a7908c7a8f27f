/**
 * Sends the relay's push queue (docs/relay.md "Phone push"): RFC 8030 requests, the payload
 * encrypted (RFC 8291 aes128gcm) and signed for (RFC 8292 VAPID) by the `web-push` library. A row
 * leaves the queue only when the push service took it or it cannot be sent, so a restart loses none.
 */
import webpush from 'web-push';
import { Agent, request } from 'undici';
import { answersWithheld } from '../domain/display-controls.js';
import { publicOnlyLookup, refusedAddress, RefusedAddressError } from './push-address.js';
import { systemTimers, type Clock, type Timers } from './clock.js';
import {
  answerable,
  pushPayload,
  pushTopic,
  pushTtlSeconds,
  pushUrgency,
  testPayload,
} from './domain/push-payload.js';
import type { Hub } from './hub.js';
import type { PushJob, VapidKeys } from './push-store.js';
import type { Relay } from './relay.js';
import type { RelayStore } from './store.js';
import type { RelayLog } from './relay-log.js';

/** Pushes in flight at once: enough to fan one notification out to a thousand devices quickly. */
const CONCURRENCY = 64;
const TIMEOUT_MS = 10_000;
/** Attempts before a push is given up (backoff 1 s doubling to an hour: about a day in all). */
const MAX_ATTEMPTS = 15;
const MAX_BACKOFF_MS = 3_600_000;
/** How often a queue with waiting rows is looked at again (a Retry-After, the relay's clock moving). */
const RECHECK_MS = 1000;

export interface PushSenderOptions {
  /** The JWT's `sub`: how a push service reaches the operator (mailto: or https:). */
  contact: string;
  keys: VapidKeys;
  /** Endpoints on this machine are posted to (--allow-loopback-push); private networks never are. */
  allowLoopback?: boolean;
  /** The re-check's timer; tests give their own to fire it when they choose. */
  timers?: Timers;
  log: RelayLog;
}

/** Seconds of a Retry-After header (a number or an HTTP date), at most a day. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return 0;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), 24 * 3_600_000) : 0;
}

export class PushSender {
  private readonly inFlight = new Map<number, AbortController>();
  private readonly dispatcher: Agent;
  private readonly timers: Timers;
  private timer: unknown;
  /** undefined: no look at the queue is running; true: another is wanted after it. */
  private pumpAgain: boolean | undefined;
  private pumping: Promise<void> = Promise.resolve();
  private stopped = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: RelayStore,
    private readonly relay: Relay,
    private readonly hub: Hub,
    private readonly clock: Clock,
    private readonly options: PushSenderOptions,
  ) {
    const lookup = publicOnlyLookup(options.allowLoopback ?? false);
    this.dispatcher = new Agent({ connect: { timeout: TIMEOUT_MS, lookup } });
    this.timers = options.timers ?? systemTimers;
  }

  start(): void {
    this.unsubscribe = this.hub.onPushQueued(() => this.pump());
    this.pump();
  }

  /** Stops sending; pushes in flight are abandoned and queued again for the next start (or another process). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.timers.clear(this.timer);
    for (const controller of this.inFlight.values()) controller.abort();
    await this.pumping;
    const now = this.clock();
    for (const jobId of this.inFlight.keys())
      await this.store.push.release(jobId, now).catch(() => undefined);
    await this.dispatcher.close().catch(() => undefined);
  }

  /** Looks at the queue now; a look asked for while one runs makes one more after it. */
  private pump(): void {
    if (this.stopped) return;
    if (this.pumpAgain !== undefined) {
      this.pumpAgain = true;
      return;
    }
    this.pumpAgain = false;
    this.pumping = this.look()
      .catch((error: unknown) => {
        this.options.log.error(`push: ${(error as Error).message}`);
        // The database away for a moment: the queue may hold due pushes, and nothing else would wake
        // the sender for them but a new push. Look again at the usual re-check.
        if (this.stopped) return;
        this.timers.clear(this.timer);
        this.timer = this.timers.set(() => this.pump(), RECHECK_MS);
      })
      .finally(() => {
        const again = this.pumpAgain;
        this.pumpAgain = undefined;
        if (again) this.pump();
      });
  }

  private async look(): Promise<void> {
    const now = this.clock();
    const room = CONCURRENCY - this.inFlight.size;
    if (room > 0) {
      for (const job of await this.store.push.claimDue(now, room)) {
        const controller = new AbortController();
        this.inFlight.set(job.id, controller);
        void this.send(job, controller.signal)
          .catch((error: unknown) => {
            this.options.log.error(`push: ${(error as Error).message}`);
          })
          .finally(() => {
            if (this.stopped) return;
            this.inFlight.delete(job.id);
            this.pump();
          });
      }
    }
    if (this.stopped) return;
    this.timers.clear(this.timer);
    const next = await this.store.push.nextDueAt();
    if (next === undefined) return;
    this.timer = this.timers.set(() => this.pump(), Math.min(Math.max(next - now, 10), RECHECK_MS));
  }

  private async send(job: PushJob, signal: AbortSignal): Promise<void> {
    const now = this.clock();
    const what = await this.message(job, now);
    if (what === undefined) {
      await this.store.push.drop(job.id);
      return;
    }
    let details;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: job.device.endpoint, keys: { p256dh: job.device.p256dh, auth: job.device.auth } },
        what.payload,
        {
          vapidDetails: {
            subject: this.options.contact,
            publicKey: this.options.keys.publicKey,
            privateKey: this.options.keys.privateKey,
          },
          TTL: what.ttl,
          urgency: what.urgency,
          ...(what.topic !== undefined && { topic: what.topic }),
          contentEncoding: 'aes128gcm',
        },
      );
    } catch (error) {
      await this.giveUp(job, now, `the push could not be made: ${(error as Error).message}`);
      return;
    }
    const literal = refusedAddress(new URL(details.endpoint).hostname, this.options.allowLoopback ?? false);
    if (literal !== undefined) {
      await this.giveUp(job, now, literal);
      return;
    }
    let status: number;
    let retryAfter: string | string[] | undefined;
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      const response = await request(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ?? undefined,
        dispatcher: this.dispatcher,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        signal,
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      await response.body.dump();
    } catch (error) {
      if (this.stopped) return;
      const refused = [error, (error as { cause?: unknown } | null)?.cause].find(
        (candidate) => candidate instanceof RefusedAddressError,
      );
      if (refused) return this.giveUp(job, this.clock(), (refused as Error).message);
      await this.retry(job, this.clock(), 0, 'the push service could not be reached');
      return;
    }
    await this.settle(job, status, retryAfter);
  }

  /** What this job sends now; undefined when there is nothing left to send (gone, or past its answer time). */
  private async message(
    job: PushJob,
    now: number,
  ): Promise<{ payload: string; ttl: number; urgency: 'high' | 'normal'; topic?: string } | undefined> {
    if (job.inboxId === null) return { payload: testPayload(), ttl: 60, urgency: 'normal' };
    const stored = await this.store.notificationAt(job.inboxId);
    if (!stored) return undefined;
    const ttl = pushTtlSeconds(stored, now);
    if (ttl === 0) return undefined;
    const answer =
      answerable(stored) && !answersWithheld(stored)
        ? {
            url: `${job.device.origin}/v1/push/notifications/${stored.inboxId}/answer`,
            token: await this.relay.answerToken(stored),
          }
        : undefined;
    return {
      payload: pushPayload(stored, {
        privacy: job.privacy,
        shortened: job.shortened,
        ...(answer && { answer }),
      }),
      ttl,
      urgency: pushUrgency(stored),
      topic: pushTopic(stored.installationId, stored.notificationId),
    };
  }

  private async settle(
    job: PushJob,
    status: number,
    retryAfter: string | string[] | undefined,
  ): Promise<void> {
    const now = this.clock();
    if (status >= 200 && status < 300) {
      await this.store.push.finish(job, now);
      await this.store.push.recordDelivery(job.device.id, now);
    } else if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: the device is gone for good.
      await this.store.push.forgetDevice(job.device.id);
      this.options.log.info(`push: device ${job.device.id} removed (the push service answered ${status})`);
    } else if (status === 413 && !job.shortened) {
      await this.store.push.shorten(job.id, now);
    } else if (status === 429 || status >= 500) {
      await this.retry(job, now, retryAfterMs(retryAfter, now), `the push service answered ${status}`);
    } else {
      await this.giveUp(job, now, `the push service refused it (${status})`);
    }
  }

  private async retry(job: PushJob, now: number, retryAfter: number, why: string): Promise<void> {
    if (job.attempts + 1 >= MAX_ATTEMPTS) {
      await this.giveUp(job, now, why);
      return;
    }
    const backoff = Math.min(1000 * 2 ** job.attempts, MAX_BACKOFF_MS);
    await this.store.push.retryAt(job.id, now + Math.max(retryAfter, backoff));
    await this.store.push.recordFailure(job.device.id, now, `${why}; trying again`);
  }

  private async giveUp(job: PushJob, now: number, why: string): Promise<void> {
    await this.store.push.drop(job.id);
    await this.store.push.recordFailure(job.device.id, now, why);
  }
}
