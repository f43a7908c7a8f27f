import type { ChannelAnswer } from '../../../domain/channel-answer.js';
import { decodeAnswerPayload, isAllowedUser, NOT_ALLOWED_MESSAGE } from '../../../domain/channel-answer.js';
import { openMessageSocket, type MessageSocket } from '../../message-socket.js';
import type { DeliveryResult, ListenContext, ListenEnd } from '../../provider.js';
import { callSlack } from './slack-web-api.js';

/**
 * Slack's Socket Mode (https://docs.slack.dev/apis/events-api/using-socket-mode): the app-level token
 * opens a WebSocket URL with apps.connections.open; Slack says `hello`, then sends envelopes that are
 * acknowledged at once by sending their `envelope_id` back; a button press comes as an `interactive`
 * envelope with a `block_actions` payload. `disconnect` asks for a new connection.
 */

export interface SlackListenOptions {
  apiUrl: string;
  botToken: string;
  appToken: string;
  allowedUserIds: readonly string[];
}

interface BlockActions {
  type?: unknown;
  user?: { id?: unknown };
  channel?: { id?: unknown };
  container?: { channel_id?: unknown };
  actions?: { value?: unknown }[];
}

/** How long telling the person what became of their press may take. */
const REPLY_TIMEOUT_MS = 15_000;

/** What listening does with a failed Web API call: retry after a pause, or wait for new settings. */
function endOf(result: Exclude<DeliveryResult, { outcome: 'delivered' }>): ListenEnd {
  if (result.outcome === 'retry') {
    return result.retryAfterMs === undefined
      ? { kind: 'failed', reason: result.reason }
      : { kind: 'failed', reason: result.reason, retryAfterMs: result.retryAfterMs };
  }
  return { kind: 'refused', reason: result.reason };
}

export async function listenSlack(context: ListenContext, options: SlackListenOptions): Promise<ListenEnd> {
  const { signal } = context;
  while (!signal.aborted) {
    const opened = await callSlack(options.apiUrl, 'apps.connections.open', options.appToken, {}, signal);
    if (signal.aborted) break;
    if (!opened.ok) return endOf(opened.result);
    const url = opened.body['url'];
    if (typeof url !== 'string') return { kind: 'failed', reason: 'unexpected_answer' };
    const socket = await openMessageSocket(url, signal);
    if (socket === undefined)
      return signal.aborted ? { kind: 'stopped' } : { kind: 'failed', reason: 'network_error' };
    const end = await readEnvelopes(socket, context, options);
    if (end !== 'reconnect') return end;
  }
  return { kind: 'stopped' };
}

async function readEnvelopes(
  socket: MessageSocket,
  context: ListenContext,
  options: SlackListenOptions,
): Promise<ListenEnd | 'reconnect'> {
  for (;;) {
    const event = await socket.next();
    if (event.kind === 'aborted') return { kind: 'stopped' };
    if (event.kind === 'overflow') return { kind: 'failed', reason: 'socket_overflow' };
    if (event.kind === 'closed') return { kind: 'failed', reason: 'connection_reset' };
    let envelope: Record<string, unknown>;
    try {
      envelope = JSON.parse(event.text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof envelope['envelope_id'] === 'string') {
      // Acknowledged before anything else: Slack resends an envelope not acknowledged within 3 s.
      socket.send(JSON.stringify({ envelope_id: envelope['envelope_id'] }));
    }
    if (envelope['type'] === 'hello') context.connected();
    else if (envelope['type'] === 'disconnect') {
      socket.close();
      if (envelope['reason'] === 'link_disabled') return { kind: 'failed', reason: 'socket_mode_disabled' };
      return 'reconnect';
    } else if (envelope['type'] === 'interactive') {
      await pressed(envelope['payload'] as BlockActions | undefined, context, options);
    }
  }
}

/** A button press: an allowed person's answer is applied; anyone is told privately what became of it. */
async function pressed(
  payload: BlockActions | undefined,
  context: ListenContext,
  options: SlackListenOptions,
): Promise<void> {
  if (payload?.type !== 'block_actions') return;
  const userId = payload.user?.id;
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  const decoded = (payload.actions ?? [])
    .map((action) => (typeof action.value === 'string' ? decodeAnswerPayload(action.value) : undefined))
    .find((value) => value !== undefined);
  if (decoded === undefined || typeof userId !== 'string' || typeof channel !== 'string') return;
  if (!isAllowedUser(options.allowedUserIds, userId)) {
    return tell(channel, userId, NOT_ALLOWED_MESSAGE, context.signal, options);
  }
  const answer: ChannelAnswer = { ...decoded, userId };
  const outcome = await context.answer(answer);
  // An applied answer shows when the outbox edits the message; anything else is said to the person.
  if (outcome.kind !== 'applied') await tell(channel, userId, outcome.message, context.signal, options);
}

async function tell(
  channel: string,
  user: string,
  text: string,
  signal: AbortSignal,
  options: SlackListenOptions,
): Promise<void> {
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(REPLY_TIMEOUT_MS)]);
  await callSlack(options.apiUrl, 'chat.postEphemeral', options.botToken, { channel, user, text }, bounded);
}
