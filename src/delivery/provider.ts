import type { ChannelAnswer, ChannelAnswerOutcome } from '../domain/channel-answer.js';
import type { Priority } from '../domain/priority.js';
import type { ReasonCode } from './reason-codes.js';

/**
 * The contract every outbound provider implements: one folder under src/delivery/providers/<id>/ and
 * one line in the registry. The declared settings drive validation, redaction, the API, the CLI
 * prompts, the generated docs table and the web form, so a provider never validates by hand.
 */

export type SettingType = 'string' | 'url' | 'integer' | 'boolean' | 'enum';

export interface SettingDeclaration {
  name: string;
  type: SettingType;
  required: boolean;
  /** Encrypted at rest, write-only through the API, never logged or printed. */
  secret: boolean;
  /** One sentence for forms, prompts and docs: what it is and where to get it. */
  help: string;
  /** The allowed values of an `enum` setting. */
  choices?: readonly string[];
  default?: string | number | boolean;
  /**
   * Of a `url` setting: the settings that carry a user name and password instead, named when a URL
   * with `user:password@` is refused (it would be stored in clear and shown by the API).
   */
  credentialsIn?: string;
  /**
   * Of a `string` setting: what is wrong with a value the type alone lets through, in words that never
   * repeat the value (it may be secret); undefined when it is fine. Run at create and update.
   */
  problem?: (value: string) => string | undefined;
}

export type SettingValues = Readonly<Record<string, string | number | boolean>>;

/** What leaves the machine about one notification (the message is absent when a route redacts it). */
export interface OutboundNotification {
  id: string;
  key?: string;
  title: string;
  message?: string;
  type: string;
  priority: Priority;
  status: 'active' | 'dismissed' | 'resolved';
  /** What an answer names (docs/answers.md); absent from items queued before revisions existed. */
  revision?: number;
  agent: string;
  /** The agent token's name it was raised with (its machine, issue 33), when one raised it. */
  raisedBy?: string;
  project?: string;
  createdAt: string;
  updatedAt: string;
  /** The choices offered to the person, when the notification has any. */
  actions?: { id: string; label: string }[];
  /** The person's answer, once given: the action's id, where it was given, when. */
  answer?: { action: string; surface: string; answeredAt: string };
}

/** The event a delivery reports, versioned with the webhook body (docs/providers.md). */
export type DeliveryEvent =
  | 'notification.created'
  | 'notification.updated'
  | 'notification.resolved'
  | 'notification.answered'
  | 'notification.dismissed'
  | 'notification.test';

/**
 * `send` announces a notification; `update` edits what an earlier send delivered; `clear` takes it
 * away. Only providers whose `lifecycle` declares it get update or clear operations.
 */
export interface DeliveryOperation {
  operation: 'send' | 'update' | 'clear';
  event: DeliveryEvent;
  notification: OutboundNotification;
  /** The same on every attempt of this item, so a receiver can drop duplicates. */
  idempotencyKey: string;
  /** What the provider returned when it delivered this lifecycle's send (message id, sequence id). */
  reference?: string;
  /**
   * For a kind with `answerButtons`: the paired relay's single-use answer link for this revision
   * (docs/relay-protocol.md "Answer links"); a button posts `{ action, token }` to `url`.
   */
  answerLink?: AnswerLink;
}

/** Where a phone can answer one revision of a notification, once: the relay's capability, no credential. */
export interface AnswerLink {
  url: string;
  token: string;
}

export interface DeliveryContext {
  settings: SettingValues;
  /** Aborts the attempt at the per-attempt time-out (15 s). */
  signal: AbortSignal;
}

/**
 * delivered: done (with the reference that later update/clear operations need);
 * retry: a transient failure (network, timeout, 408, 425, 429, 5xx), with the delay the receiver asked for;
 * reject: a permanent one (other 4xx, a redirect to another host, bad settings): dead-letter at once.
 * `reason` is a short code from reason-codes.ts (e.g. `http_503`, `timeout`), never exception text.
 */
export type DeliveryResult =
  | { outcome: 'delivered'; reference?: string; status?: number }
  | { outcome: 'retry'; reason: ReasonCode; status?: number; retryAfterMs?: number }
  | { outcome: 'reject'; reason: ReasonCode; status?: number };

/**
 * What a provider's connection check found: `result` classifies the answer as a delivery's would
 * (delivered: the service knows these settings); `installation` is who the service says we are.
 */
export interface ConnectionCheck {
  result: DeliveryResult;
  installation?: { id: string; name: string };
}

/**
 * What a channel that carries answers back gets while it listens (its long poll, socket or
 * subscription): its settings with the secrets opened, the position it reached last time, and where
 * answers go. It runs in the broker only while the provider is enabled.
 */
export interface ListenContext {
  settings: SettingValues;
  /** Aborted when the provider is disabled, changed or deleted, or the broker stops. */
  signal: AbortSignal;
  /** Where the last run stopped reading (an update offset, a sync token), kept across restarts. */
  cursor?: string;
  saveCursor(cursor: string): void;
  /** Tells the broker the channel is connected and reading: the backoff starts over. */
  connected(): void;
  /** Applies an answer and says what became of it, for the channel to tell the person. */
  answer(answer: ChannelAnswer): Promise<ChannelAnswerOutcome>;
}

/**
 * Why listening ended: `stopped` (the signal), `failed` (try again after the backoff, or after the
 * delay the service asked for), `refused` (the service refuses the credentials: wait for a change).
 * `reason` is a code from reason-codes.ts, never exception text.
 */
export type ListenEnd =
  | { kind: 'stopped' }
  | { kind: 'failed'; reason: ReasonCode; retryAfterMs?: number }
  | { kind: 'refused'; reason: ReasonCode };

/**
 * What a provider's service says, when asked later, about a message it took: `waiting` (nobody has
 * looked yet), `seen` (the person acknowledged it on a device, at `at` ms), `over` (the service stopped
 * alerting unseen: expired, cancelled or unknown), `failed` (asking did not work this time; `result`
 * says why, as a delivery's would).
 */
export type FollowUp =
  | { kind: 'waiting' }
  | { kind: 'seen'; at: number; device?: string }
  | { kind: 'over' }
  | { kind: 'failed'; result: DeliveryResult };

export interface ProviderKind {
  /** The folder name and the `kind` of a provider in the API, e.g. `ntfy`. */
  id: string;
  /** Human name, e.g. "ntfy". */
  title: string;
  /** One line for lists and docs. */
  description: string;
  settings: readonly SettingDeclaration[];
  /** Whether it can edit (`update`) or take away (`clear`) what it delivered. */
  lifecycle: { update: boolean; clear: boolean };
  deliver(operation: DeliveryOperation, context: DeliveryContext): Promise<DeliveryResult>;
  /**
   * Asks the service whether it still accepts these settings, sending nothing a person would see
   * (GET /v1/providers/{id}/connection); only kinds with an account to check have it (the relay).
   */
  connection?(context: DeliveryContext): Promise<ConnectionCheck>;
  /**
   * Reads the person's answers from the service until the signal aborts or reading fails; only kinds
   * that carry answers back have it (docs/providers.md "Channels that answer").
   */
  listen?(context: ListenContext): Promise<ListenEnd>;
  /**
   * Asks the service about a delivered send of an active notification (its `reference`), e.g.
   * Pushover's emergency receipt; the broker asks every FOLLOW_UP_INTERVAL_MS at most, until `seen` or
   * `over`, and shows `seen` on the outbox item ("seen on the phone").
   */
  followUp?(reference: string, context: DeliveryContext): Promise<FollowUp>;
  /**
   * Answers come back from this kind's service by a path of its own rather than listen() (the relay's
   * event stream), so the docs still say it can answer.
   */
  answersByOwnStream?: true;
  /**
   * Its messages carry buttons that answer through the paired relay's answer link (ntfy's http
   * actions): the outbox asks the relay for one before each send or update of an active notification
   * with actions, and passes it as `operation.answerLink`.
   */
  answerButtons?: true;
}
