import { createParser } from 'eventsource-parser';
import { relayTarget } from './relay-address.js';
import { classifyNetworkError } from '../../classify.js';
import type { ReasonCode } from '../../reason-codes.js';

/**
 * One connection to a relay's `GET /v1/events` (docs/relay-protocol.md): opened by notifyd, resumed
 * with Last-Event-ID, read until it ends, fails or is stopped. Events are handed over one at a time, in
 * order; a handler that throws ends the connection, so its event is read again after the reconnect.
 */

export interface RelayStreamEvent {
  id?: string;
  type?: string;
  data: string;
}

export interface RelayStreamOptions {
  url: string;
  /** The profile's --allow-private: the relay may be on this machine or a private network. */
  allowPrivate: boolean;
  credential: string;
  lastEventId?: string;
  signal: AbortSignal;
  /** The relay accepted the credential and the stream is open. */
  onOpen(): void;
  onEvent(event: RelayStreamEvent): Promise<void>;
  /** How long the stream may be silent before the connection counts as gone: 90 s unless a test sets less. */
  silenceLimitMs?: number;
}

/**
 * How the connection ended: `refused` is an answer outside 2xx, `failed` a network failure or a
 * handler's, `overrun` a relay that sent more than a relay ever needs to (`limit` says what, in words).
 */
export type RelayStreamEnd =
  | { kind: 'ended' }
  | { kind: 'stopped' }
  | { kind: 'refused'; status: number }
  | { kind: 'failed'; reason: ReasonCode }
  | { kind: 'overrun'; limit: string };

/** The relay sends a keep-alive every 25 s: three missed ones mean the connection is gone. */
const SILENCE_LIMIT_MS = 90_000;
const CONNECT_TIMEOUT_MS = 15_000;
/**
 * What one relay may send, so that a malicious or broken one cannot exhaust notifyd's memory: an event
 * (or an unfinished line) of at most the protocol's body size, and events at a pace no person answering
 * on a phone comes near, with room for the replay after a reconnect (resumed later from the cursor).
 */
const MAX_EVENT_CHARACTERS = 65_536;
const EVENT_BURST = 1000;
const EVENTS_PER_SECOND = 100;
/** Events parsed but not yet applied; reading pauses beyond this, so the queue never grows unbounded. */
const MAX_QUEUED_EVENTS = 32;

export async function followRelayEvents(options: RelayStreamOptions): Promise<RelayStreamEnd> {
  const target = await relayTarget(options.url, options.allowPrivate);
  if (!target.ok) return { kind: 'failed', reason: 'address_not_allowed' };
  const { request } = await import('undici');
  const local = new AbortController();
  const stop = () => local.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  let failure: unknown;
  try {
    const response = await request(`${options.url.replace(/\/+$/, '')}/v1/events`, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer ${options.credential}`,
        ...(options.lastEventId !== undefined && { 'last-event-id': options.lastEventId }),
      },
      signal: local.signal,
      dispatcher: target.dispatcher,
      headersTimeout: CONNECT_TIMEOUT_MS,
      bodyTimeout: options.silenceLimitMs ?? SILENCE_LIMIT_MS,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump().catch(() => undefined);
      return { kind: 'refused', status: response.statusCode };
    }
    options.onOpen();
    let handling = Promise.resolve();
    let queued = 0;
    let overrun: string | undefined;
    const pace = new EventPace(Date.now);
    const breach = (limit: string) => {
      overrun ??= limit;
      local.abort();
    };
    const parser = createParser({
      maxBufferSize: MAX_EVENT_CHARACTERS,
      onError(error) {
        if (error.type === 'max-buffer-size-exceeded')
          breach(`a line or event over ${MAX_EVENT_CHARACTERS} characters`);
      },
      onComment() {
        if (!pace.take()) breach(`more than ${EVENTS_PER_SECOND} events a second`);
      },
      onEvent(event) {
        if (overrun !== undefined) return;
        if (event.data.length > MAX_EVENT_CHARACTERS)
          return breach(`a line or event over ${MAX_EVENT_CHARACTERS} characters`);
        if (!pace.take()) return breach(`more than ${EVENTS_PER_SECOND} events a second`);
        queued += 1;
        handling = handling.then(async () => {
          queued -= 1;
          if (failure !== undefined) return;
          try {
            await options.onEvent({
              data: event.data,
              ...(event.id !== undefined && { id: event.id }),
              ...(event.event !== undefined && { type: event.event }),
            });
          } catch (error) {
            failure = error;
            local.abort();
          }
        });
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (overrun !== undefined) break;
        if (queued > MAX_QUEUED_EVENTS) await handling;
      }
    } catch (error) {
      if (overrun === undefined) throw error;
    } finally {
      await handling;
    }
    if (overrun !== undefined && !options.signal.aborted) return { kind: 'overrun', limit: overrun };
    if (failure !== undefined) return { kind: 'failed', reason: `error_${errorClass(failure)}` };
    return options.signal.aborted ? { kind: 'stopped' } : { kind: 'ended' };
  } catch (error) {
    if (options.signal.aborted) return { kind: 'stopped' };
    if (failure !== undefined) return { kind: 'failed', reason: `error_${errorClass(failure)}` };
    const result = classifyNetworkError(error, false);
    return { kind: 'failed', reason: result.outcome === 'delivered' ? 'network_error' : result.reason };
  } finally {
    options.signal.removeEventListener('abort', stop);
  }
}

/** A token bucket: EVENT_BURST at once, refilled at EVENTS_PER_SECOND. */
class EventPace {
  #tokens = EVENT_BURST;
  #at: number;

  constructor(private readonly now: () => number) {
    this.#at = now();
  }

  take(): boolean {
    const now = this.now();
    this.#tokens = Math.min(EVENT_BURST, this.#tokens + ((now - this.#at) / 1000) * EVENTS_PER_SECOND);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

function errorClass(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  return name.replace(/[^A-Za-z0-9]/g, '').toLowerCase() || 'unknown';
}
