import {
  answeredLine,
  decodeAnswerPayload,
  isAllowedUser,
  NOT_ALLOWED_MESSAGE,
  readUserIdList,
} from '../../../domain/channel-answer.js';
import type { ListenContext, ListenEnd } from '../../provider.js';
import { requiredString } from '../../setting-values.js';
import { callBot, type BotAnswer } from './bot-api.js';
import type { InlineButton } from './telegram-message.js';

/**
 * The answers of a Telegram chat: `getUpdates` long polling for `callback_query` updates only, the
 * offset kept as the listener's cursor, so a restart neither loses a press nor applies one twice (the
 * cursor moves past an update only once it was handled; a press read again finds the request answered).
 */

/** How long one getUpdates waits for a press; the first call does not wait, to check the token at once. */
const POLL_SECONDS = 25;
/** A poll that outlives its timeout by this much hangs: end it and poll again. */
const POLL_GRACE_MS = 15_000;
/** answerCallbackQuery shows at most 200 characters. */
const MAX_ACK = 200;
const FOREIGN_BUTTON = 'This button is not one of Notify’s.';

interface CallbackQuery {
  id?: unknown;
  from?: { id?: unknown };
  data?: unknown;
  message?: { chat?: { id?: unknown }; reply_markup?: { inline_keyboard?: InlineButton[][] } };
}

interface Update {
  update_id?: unknown;
  callback_query?: CallbackQuery;
}

function readOffset(cursor: string | undefined): number | undefined {
  return cursor !== undefined && /^\d{1,15}$/.test(cursor) ? Number(cursor) : undefined;
}

function ended(failure: Exclude<BotAnswer, { ok: true }>['failure']): ListenEnd {
  // 401 (a revoked token), 403 and 404 (a malformed token) do not heal by waiting.
  if (failure.status === 401 || failure.status === 403 || failure.status === 404)
    return { kind: 'refused', reason: failure.reason };
  return failure.outcome === 'retry' && failure.retryAfterMs !== undefined
    ? { kind: 'failed', reason: failure.reason, retryAfterMs: failure.retryAfterMs }
    : { kind: 'failed', reason: failure.reason };
}

/** The label of the pressed button, as the message showed it. */
function pressedLabel(query: CallbackQuery): string | undefined {
  const rows = query.message?.reply_markup?.inline_keyboard ?? [];
  return rows.flat().find((button) => button.callback_data === query.data)?.text;
}

async function handlePress(context: ListenContext, query: CallbackQuery): Promise<void> {
  if (typeof query.id !== 'string') return;
  const acknowledge = async (text: string, alert: boolean) => {
    const clipped = [...text].slice(0, MAX_ACK).join('');
    await callBot(
      context.settings,
      'answerCallbackQuery',
      { callback_query_id: query.id, text: clipped, show_alert: alert },
      context.signal,
    );
  };
  const payload = typeof query.data === 'string' ? decodeAnswerPayload(query.data) : undefined;
  const userId = typeof query.from?.id === 'number' ? String(query.from.id) : undefined;
  if (payload === undefined || userId === undefined) return acknowledge(FOREIGN_BUTTON, false);
  // In a private chat (a positive chat id) the chat is the person: pressing there counts, but only in
  // the configured chat, not in a private chat the message was forwarded to.
  const chatId = String(query.message?.chat?.id ?? '');
  const implicit =
    /^\d+$/.test(chatId) && chatId === requiredString(context.settings, 'chatId') ? [chatId] : [];
  if (!isAllowedUser(readUserIdList(context.settings['allowedUserIds']), userId, implicit))
    return acknowledge(NOT_ALLOWED_MESSAGE, true);
  const outcome = await context.answer({ ...payload, userId });
  if (outcome.kind === 'applied')
    return acknowledge(answeredLine(pressedLabel(query) ?? outcome.action, 'telegram'), false);
  return acknowledge(outcome.message, true);
}

export async function listenForPresses(context: ListenContext): Promise<ListenEnd> {
  let offset = readOffset(context.cursor);
  let timeout = 0;
  while (!context.signal.aborted) {
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeout * 1000 + POLL_GRACE_MS)]);
    const reply = await callBot(
      context.settings,
      'getUpdates',
      { ...(offset !== undefined && { offset }), timeout, allowed_updates: ['callback_query'] },
      signal,
    );
    if (context.signal.aborted) break;
    if (!reply.ok) return ended(reply.failure);
    if (timeout === 0) context.connected();
    timeout = POLL_SECONDS;
    const updates: Update[] = Array.isArray(reply.result) ? (reply.result as Update[]) : [];
    for (const update of updates) {
      if (typeof update.update_id !== 'number' || !Number.isSafeInteger(update.update_id)) continue;
      if (update.callback_query !== undefined) await handlePress(context, update.callback_query);
      offset = update.update_id + 1;
      context.saveCursor(String(offset));
    }
  }
  return { kind: 'stopped' };
}
