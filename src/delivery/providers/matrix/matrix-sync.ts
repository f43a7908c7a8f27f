import {
  answeredLine,
  isAllowedUser,
  NOT_ALLOWED_MESSAGE,
  readUserIdList,
} from '../../../domain/channel-answer.js';
import type { ListenContext, ListenEnd } from '../../provider.js';
import { requiredString } from '../../setting-values.js';
import { callMatrix, roomPath, type MatrixAnswer } from './client-api.js';
import { ANSWER_FIELD, type AnswerField } from './matrix-message.js';

/**
 * The answers of a Matrix room: `/sync` long polling filtered to the room's messages and reactions,
 * the `next_batch` token kept as the cursor. A reply to one of our messages whose text is an action's
 * label or id, or a reaction declared for an action (✅, ❌), answers what that message showed when
 * the reply came: the latest edit of ours before it in the room's timeline. The person is told the
 * outcome in a notice replying to their event.
 */

const POLL_MS = 25_000;
const POLL_GRACE_MS = 15_000;
/** Our events and what each offers now; the oldest are forgotten (a fetch finds them again). */
const MAX_REMEMBERED = 500;

interface RoomEvent {
  event_id?: unknown;
  sender?: unknown;
  type?: unknown;
  content?: Record<string, unknown>;
  unsigned?: { 'm.relations'?: { 'm.replace'?: { content?: Record<string, unknown> } } };
}

function ended(failure: Exclude<MatrixAnswer, { ok: true }>['failure']): ListenEnd {
  if (failure.status === 401 || failure.status === 403) return { kind: 'refused', reason: failure.reason };
  return failure.outcome === 'retry' && failure.retryAfterMs !== undefined
    ? { kind: 'failed', reason: failure.reason, retryAfterMs: failure.retryAfterMs }
    : { kind: 'failed', reason: failure.reason };
}

function answerField(content: Record<string, unknown> | undefined): AnswerField | null {
  const field = content?.[ANSWER_FIELD] as AnswerField | undefined;
  return field !== undefined && typeof field.notification === 'string' && Array.isArray(field.actions)
    ? field
    : null;
}

function filter(roomId: string): string {
  return JSON.stringify({
    presence: { types: [] },
    account_data: { types: [] },
    room: {
      rooms: [roomId],
      timeline: { types: ['m.room.message', 'm.reaction'], limit: 50 },
      state: { types: [] },
      ephemeral: { types: [] },
      account_data: { types: [] },
    },
  });
}

/** The reply's own words: the quoted fallback (`> ` lines) of older clients dropped. */
function replyText(body: string): string {
  return body
    .split('\n')
    .filter((line) => !line.startsWith('>'))
    .join(' ')
    .trim()
    .toLowerCase();
}

class RoomReader {
  readonly #offers = new Map<string, AnswerField | null>();
  readonly #allowed: string[];

  constructor(
    private readonly context: ListenContext,
    private readonly me: string,
  ) {
    this.#allowed = readUserIdList(context.settings['allowedUserIds']);
  }

  remember(eventId: string, field: AnswerField | null): void {
    this.#offers.delete(eventId);
    this.#offers.set(eventId, field);
    if (this.#offers.size > MAX_REMEMBERED) this.#offers.delete(this.#offers.keys().next().value!);
  }

  /** What our event (or its latest edit) offers; fetched when it is older than what we remember. */
  async offerOf(eventId: string): Promise<AnswerField | null> {
    const known = this.#offers.get(eventId);
    if (known !== undefined) return known;
    const reply = await callMatrix(
      this.context.settings,
      'GET',
      roomPath(this.context.settings, `event/${encodeURIComponent(eventId)}`),
      this.context.signal,
    );
    if (!reply.ok) return null;
    const event = reply.body as RoomEvent;
    if (event.sender !== this.me) return null;
    const edited = event.unsigned?.['m.relations']?.['m.replace']?.content?.['m.new_content'];
    const field = answerField((edited as Record<string, unknown> | undefined) ?? event.content);
    this.remember(eventId, field);
    return field;
  }

  async read(event: RoomEvent, answering: boolean): Promise<void> {
    const content = event.content ?? {};
    const relates = content['m.relates_to'] as Record<string, unknown> | undefined;
    if (event.sender === this.me) {
      if (relates?.['rel_type'] === 'm.replace' && typeof relates['event_id'] === 'string')
        this.remember(relates['event_id'], answerField(content['m.new_content'] as Record<string, unknown>));
      else if (typeof event.event_id === 'string') this.remember(event.event_id, answerField(content));
      return;
    }
    if (!answering || typeof event.sender !== 'string' || typeof event.event_id !== 'string') return;
    const target =
      event.type === 'm.reaction' && relates?.['rel_type'] === 'm.annotation'
        ? relates['event_id']
        : (relates?.['m.in_reply_to'] as { event_id?: unknown } | undefined)?.event_id;
    if (typeof target !== 'string') return;
    const offer = await this.offerOf(target);
    if (offer === null) return;
    const chosen =
      event.type === 'm.reaction'
        ? offer.actions.find((action) => action.reaction === String(relates?.['key']).replace(/\uFE0F/g, ''))
        : offer.actions.find((action) =>
            [action.id.toLowerCase(), action.label.toLowerCase()].includes(
              replyText(String(content['body'])),
            ),
          );
    if (chosen === undefined) return;
    if (!isAllowedUser(this.#allowed, event.sender)) return this.tell(event.event_id, NOT_ALLOWED_MESSAGE);
    const outcome = await this.context.answer({
      notificationId: offer.notification,
      revision: offer.revision,
      choice: { index: chosen.index },
      userId: event.sender,
    });
    await this.tell(
      event.event_id,
      outcome.kind === 'applied' ? answeredLine(chosen.label, 'matrix') : outcome.message,
    );
  }

  /** A notice replying to the person's event; its transaction id makes a repeat the same event. */
  private async tell(eventId: string, text: string): Promise<void> {
    const txn = `notify-outcome-${eventId.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    await callMatrix(
      this.context.settings,
      'PUT',
      roomPath(this.context.settings, `send/m.room.message/${txn}`),
      this.context.signal,
      { msgtype: 'm.notice', body: text, 'm.relates_to': { 'm.in_reply_to': { event_id: eventId } } },
    );
  }
}

export async function listenToRoom(context: ListenContext): Promise<ListenEnd> {
  const whoami = await callMatrix(
    context.settings,
    'GET',
    '/_matrix/client/v3/account/whoami',
    context.signal,
  );
  if (context.signal.aborted) return { kind: 'stopped' };
  if (!whoami.ok) return ended(whoami.failure);
  const me = String(whoami.body['user_id']);
  context.connected();
  const reader = new RoomReader(context, me);
  const roomId = requiredString(context.settings, 'roomId');
  // Without a token the first sync only learns where the room stands: old replies are not answers.
  let since = context.cursor;
  while (!context.signal.aborted) {
    const query = new URLSearchParams({
      filter: filter(roomId),
      timeout: String(since === undefined ? 0 : POLL_MS),
      ...(since !== undefined && { since }),
    });
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(POLL_MS + POLL_GRACE_MS)]);
    const reply = await callMatrix(context.settings, 'GET', `/_matrix/client/v3/sync?${query}`, signal);
    if (context.signal.aborted) break;
    if (!reply.ok) return ended(reply.failure);
    const rooms = reply.body['rooms'] as
      { join?: Record<string, { timeline?: { events?: RoomEvent[] } }> } | undefined;
    const events = rooms?.join?.[roomId]?.timeline?.events ?? [];
    for (const event of events) await reader.read(event, since !== undefined);
    const next = reply.body['next_batch'];
    if (typeof next !== 'string') return { kind: 'failed', reason: 'unexpected_answer' };
    since = next;
    context.saveCursor(next);
  }
  return { kind: 'stopped' };
}
