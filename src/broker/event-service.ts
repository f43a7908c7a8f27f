import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EnvelopeValidator } from '../domain/arc/envelope-validator.js';
import type { ArcEnvelope } from '../domain/arc/envelope.js';
import { conditionKey, toDraft } from '../domain/arc/mapping.js';
import type { NotificationDraft, NotificationRecord } from '../domain/notification.js';
import type { NotificationService } from './notification-service.js';

/** The published schema; the broker validates with this very file (dist/src/broker → repository root). */
export const ARC_SCHEMA_FILE = fileURLToPath(
  new URL('../../../schemas/arc-0.1.schema.json', import.meta.url),
);

export function readArcSchema(file: string = ARC_SCHEMA_FILE): object {
  return JSON.parse(readFileSync(file, 'utf8')) as object;
}

export interface EventServiceDeps {
  /** The ARC validator, asked for on each event (validatorOnFirstUse compiles it once, when first asked). */
  validator: () => Promise<EnvelopeValidator>;
  notifications: NotificationService;
}

/**
 * Compiles the ARC validator with the first event, not at start: ajv and its compile (the largest part
 * of a start) stay out of a broker that receives no ARC events. The schema file ships with the program
 * and a test compiles it; were it broken, every event would answer 500 and the log would say why.
 */
export function validatorOnFirstUse(file: string = ARC_SCHEMA_FILE): () => Promise<EnvelopeValidator> {
  let compiled: Promise<EnvelopeValidator> | undefined;
  return () => {
    compiled ??= import('../domain/arc/envelope-validator.js').then(({ compileEnvelopeValidator }) =>
      compileEnvelopeValidator(readArcSchema(file)),
    );
    return compiled;
  };
}

export interface EventOutcome {
  record: NotificationRecord;
  /** True when a new notification was persisted (201); false for every other success (200). */
  created: boolean;
}

/**
 * POST /v1/events: ARC 0.1 request.created / updated / resolved (spec "States and transitions").
 * Every write goes through NotificationService, the path native creation takes.
 */
export class EventService {
  /** Kept once compiled: every event after the first is validated without waiting on a promise. */
  #validate: EnvelopeValidator | undefined;

  constructor(private readonly deps: EventServiceDeps) {}

  /** `raisedBy`: the agent token's name the event came with; it touches only that token's notifications. */
  async handle(body: unknown, raisedBy?: string): Promise<EventOutcome> {
    this.#validate ??= await this.deps.validator();
    const envelope = this.#validate(body);
    switch (envelope.event_type) {
      case 'request.created':
        return this.create(envelope, raisedBy);
      case 'request.updated':
        return {
          record: await this.deps.notifications.replaceActive(withRaisedBy(toDraft(envelope), raisedBy)),
          created: false,
        };
      case 'request.resolved':
        return {
          record: await this.deps.notifications.resolveCondition(conditionKey(envelope)!, raisedBy),
          created: false,
        };
    }
  }

  /**
   * Keyed: the condition lifecycle (refresh the active one in place, else start a new one). Unkeyed:
   * identity is (sender.id, event_id), enforced by a unique index, so a retry (or a concurrent duplicate)
   * returns the original notification whatever its status.
   */
  private create(envelope: ArcEnvelope, raisedBy: string | undefined): Promise<EventOutcome> {
    const draft = withRaisedBy(toDraft(envelope), raisedBy);
    if (draft.key !== undefined) return this.deps.notifications.store(draft);
    const event = { senderId: envelope.sender.id, eventId: envelope.event_id };
    return this.deps.notifications.store(draft, { event });
  }
}

function withRaisedBy(draft: NotificationDraft, raisedBy: string | undefined): NotificationDraft {
  return raisedBy === undefined ? draft : { ...draft, raisedBy };
}
