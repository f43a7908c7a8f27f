import type { Db } from './database.js';

/** A delivered send of an active notification the broker may still ask its provider about. */
export interface Followable {
  seq: number;
  notificationId: string;
  providerId: string;
  reference: string;
}

/** What became of a followed send: the person saw it (when, on which device), or it is over unseen. */
export type FollowOutcome = { state: 'seen'; at: number; device?: string } | { state: 'over' };

/**
 * The SQL of follow-ups (migration 14): which delivered sends may still be seen, and what a provider
 * said of one. Once an outcome is recorded the send is no longer asked about.
 */
export class FollowUpStore {
  readonly #open;
  readonly #record;

  constructor(db: Db) {
    this.#open = db.prepare<
      [],
      { seq: number; notificationId: string; providerId: string; reference: string }
    >(`
      SELECT o.seq, o.notification_id AS notificationId, o.provider_id AS providerId, o.reference
      FROM outbox o INDEXED BY outbox_state JOIN notifications n ON n.id = o.notification_id
      WHERE o.state = 'delivered' AND o.operation = 'send' AND o.reference IS NOT NULL
        AND o.follow_state IS NULL AND n.status = 'active'
      ORDER BY o.seq`);
    this.#record = db.prepare(`
      UPDATE outbox SET follow_state = @state, follow_at = @at, follow_device = @device
      WHERE seq = @seq AND follow_state IS NULL`);
  }

  /** Delivered sends of active notifications through the given providers, nothing recorded yet. */
  open(providerIds: ReadonlySet<string>): Followable[] {
    if (providerIds.size === 0) return [];
    return this.#open.all().filter((row) => providerIds.has(row.providerId));
  }

  record(seq: number, outcome: FollowOutcome): void {
    this.#record.run({
      seq,
      state: outcome.state,
      at: outcome.state === 'seen' ? outcome.at : null,
      device: outcome.state === 'seen' ? (outcome.device ?? null) : null,
    });
  }
}
