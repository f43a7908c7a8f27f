import { toDto } from '../domain/notification.js';
import type { NotificationChange } from './change-feed.js';

/** One event of GET /v1/stream: `name` is the SSE event field, `data` the JSON of the notification. */
export interface StreamEvent {
  id: string;
  name: string;
  readonly data: string;
}

export type StreamListener = (event: StreamEvent) => void;

/** How a stream resumes after `Last-Event-ID`: the missed events, or `reset` when they are gone. */
export type Resumption = { kind: 'replay'; events: StreamEvent[] } | { kind: 'reset' };

/**
 * The event names a consumer sees; `reopened` is a dismissed or resolved notification made active. An
 * answer resolves: `notification.answered` comes first, then `notification.resolved` for consumers that
 * know only the spec's events (only a reopen, which drops the answer, can change an answered one).
 */
export function eventNames(change: NotificationChange): string[] {
  if (change.kind !== 'status') return [`notification.${change.kind}`];
  if (change.record.status === 'active') return ['notification.reopened'];
  if (change.record.answer) return ['notification.answered', 'notification.resolved'];
  return [`notification.${change.record.status}`];
}

/**
 * The JSON of the change's notification, made when first read: with nobody following the stream, most
 * kept events are never read, and a create need not serialize its notification twice. Classes, not an
 * object literal with a getter and a closure: V8 makes such a literal's shape anew for each event
 * (issue 38: most of what keeping a change cost).
 */
class ChangeJson {
  #text: string | undefined;

  constructor(private readonly change: NotificationChange) {}

  get text(): string {
    return (this.#text ??= JSON.stringify(toDto(this.change.record)));
  }
}

/** An event of the change: an answer's two events share its JSON. */
class KeptEvent implements StreamEvent {
  constructor(
    readonly id: string,
    readonly name: string,
    private readonly json: ChangeJson,
  ) {}

  get data(): string {
    return this.json.text;
  }
}

/**
 * The live change stream: numbers each committed change and keeps the newest ones so that a client
 * that reconnects with `Last-Event-ID` gets what it missed. Ids carry the broker's boot so that an id
 * from before a restart is never mistaken for one of this run (the client is told to re-list instead).
 */
export class ChangeStream {
  readonly #history: StreamEvent[] = [];
  readonly #listeners = new Map<StreamListener, () => void>();
  readonly #boot: string;
  #sequence = 0;

  constructor(
    private readonly capacity: number,
    bootTime: number,
  ) {
    this.#boot = bootTime.toString(36);
  }

  get subscriberCount(): number {
    return this.#listeners.size;
  }

  append(change: NotificationChange): void {
    const json = new ChangeJson(change);
    for (const name of eventNames(change)) {
      const event = new KeptEvent(`${this.#boot}-${++this.#sequence}`, name, json);
      this.#history.push(event);
      if (this.#history.length > this.capacity) this.#history.shift();
      for (const listener of this.#listeners.keys()) listener(event);
    }
  }

  /** `onEnd` runs when the broker stops; returns the function that unsubscribes. */
  subscribe(listener: StreamListener, onEnd: () => void = () => {}): () => void {
    this.#listeners.set(listener, onEnd);
    return () => this.#listeners.delete(listener);
  }

  /** The broker stops: every subscriber is told to finish. */
  end(): void {
    for (const onEnd of [...this.#listeners.values()]) onEnd();
    this.#listeners.clear();
  }

  /** What a client that saw `lastEventId` missed. */
  since(lastEventId: string): Resumption {
    const match = /^([0-9a-z]+)-(\d+)$/.exec(lastEventId.trim());
    if (!match || match[1] !== this.#boot) return { kind: 'reset' };
    const seen = Number(match[2]);
    if (seen > this.#sequence) return { kind: 'reset' };
    const missed = this.#sequence - seen;
    if (missed > this.#history.length) return { kind: 'reset' };
    return { kind: 'replay', events: missed === 0 ? [] : this.#history.slice(-missed) };
  }
}
