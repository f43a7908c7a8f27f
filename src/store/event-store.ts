import type { Db } from './database.js';

/** The outcome of EventStore.createOnce: what `create` made, or the notification of the original event. */
export type CreateOnceOutcome<T> = { result: T } | { originalId: string };

/** Thrown inside the transaction to roll back a duplicate's writes; never escapes this module. */
class DuplicateEvent extends Error {
  constructor(readonly originalId: string) {
    super('duplicate ARC event');
  }
}

/** All SQL of ARC event identity (table arc_events, migration 2). */
export class EventStore {
  readonly #claim;
  readonly #original;

  constructor(private readonly db: Db) {
    this.#claim = db.prepare<[string, string, string, number]>(`
      INSERT INTO arc_events (sender_id, event_id, notification_id, received_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (sender_id, event_id) DO NOTHING`);
    this.#original = db.prepare<[string, string], { notification_id: string }>(
      `SELECT notification_id FROM arc_events WHERE sender_id = ? AND event_id = ?`,
    );
  }

  /**
   * Runs `create` and records the notification it made as the outcome of (senderId, eventId), both in
   * one transaction. The primary key decides: when the pair is already recorded (a retry, or a
   * concurrent duplicate), the transaction rolls back, so nothing `create` wrote stays, and the id of
   * the original notification is returned instead.
   */
  createOnce<T extends { record: { id: string } }>(
    senderId: string,
    eventId: string,
    now: number,
    create: () => T,
  ): CreateOnceOutcome<T> {
    const attempt = this.db.transaction((): T => {
      const result = create();
      if (this.#claim.run(senderId, eventId, result.record.id, now).changes === 1) return result;
      throw new DuplicateEvent(this.#original.get(senderId, eventId)!.notification_id);
    });
    try {
      return { result: attempt.immediate() };
    } catch (error) {
      if (error instanceof DuplicateEvent) return { originalId: error.originalId };
      throw error;
    }
  }

  /** The notification recorded for an event, if any. */
  notificationOf(senderId: string, eventId: string): string | undefined {
    return this.#original.get(senderId, eventId)?.notification_id;
  }
}
