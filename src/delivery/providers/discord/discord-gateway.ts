import { setTimeout as delay } from 'node:timers/promises';
import { decodeAnswerPayload, isAllowedUser, NOT_ALLOWED_MESSAGE } from '../../../domain/channel-answer.js';
import { openMessageSocket, type MessageSocket } from '../../message-socket.js';
import type { DeliveryResult, ListenContext, ListenEnd } from '../../provider.js';
import { callDiscord } from './discord-rest.js';

/**
 * Discord's Gateway (https://discord.com/developers/docs/events/gateway): Hello (op 10) gives the
 * heartbeat interval; Identify (op 2) starts a session, READY names it and the URL to resume it at;
 * heartbeats (op 1) are acknowledged (op 11), and one left unacknowledged means a dead connection;
 * Reconnect (op 7) and a resumable Invalid Session (op 9) are answered by Resume (op 6) with the last
 * sequence number, so no event is lost. A button press is an INTERACTION_CREATE dispatch, answered at
 * its callback URL within 3 seconds.
 */

export interface DiscordListenOptions {
  apiUrl: string;
  botToken: string;
  gatewayUrl?: string;
  allowedUserIds: readonly string[];
  random: () => number;
}

interface Session {
  id: string;
  resumeUrl: string;
}

interface GatewayState {
  session?: Session;
  seq: number | null;
}

interface Interaction {
  id?: unknown;
  token?: unknown;
  type?: unknown;
  data?: { custom_id?: unknown };
  member?: { user?: { id?: unknown } };
  user?: { id?: unknown };
}

const HELLO = 10;
const DISPATCH = 0;
const HEARTBEAT = 1;
const IDENTIFY = 2;
const RESUME = 6;
const RECONNECT = 7;
const INVALID_SESSION = 9;
const HEARTBEAT_ACK = 11;
const MESSAGE_COMPONENT = 3;
const DEFERRED_UPDATE_MESSAGE = 6;
const CHANNEL_MESSAGE = 4;
const EPHEMERAL = 64;
/** Interactions arrive whatever the intents; GUILDS is the smallest set that is never privileged. */
const INTENTS = 1;
/** A close code other than 1000/1001 keeps the session resumable. */
const RESUMABLE_CLOSE = 4000;
/** Close codes after which identifying again cannot help: the token or the intents are refused. */
const REFUSED_CLOSES = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
/** Close codes that end the session: identify anew. */
const NEW_SESSION_CLOSES = new Set([4007, 4009]);
const CALLBACK_TIMEOUT_MS = 3000;

type SessionEnd = ListenEnd | 'resume' | 'identify';

function endOf(result: Exclude<DeliveryResult, { outcome: 'delivered' }>): ListenEnd {
  if (result.outcome === 'reject') return { kind: 'refused', reason: result.reason };
  return result.retryAfterMs === undefined
    ? { kind: 'failed', reason: result.reason }
    : { kind: 'failed', reason: result.reason, retryAfterMs: result.retryAfterMs };
}

function socketUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set('v', '10');
  url.searchParams.set('encoding', 'json');
  return url.href;
}

export async function listenDiscord(
  context: ListenContext,
  options: DiscordListenOptions,
): Promise<ListenEnd> {
  const { signal } = context;
  let gateway = options.gatewayUrl;
  if (gateway === undefined) {
    const asked = await callDiscord(
      options.apiUrl,
      'GET',
      '/gateway/bot',
      options.botToken,
      undefined,
      signal,
    );
    if (signal.aborted) return { kind: 'stopped' };
    if (!asked.ok) return endOf(asked.result);
    if (typeof asked.body['url'] !== 'string') return { kind: 'failed', reason: 'unexpected_answer' };
    gateway = asked.body['url'];
  }
  const state: GatewayState = { seq: null };
  while (!signal.aborted) {
    let url: string;
    try {
      url = socketUrl(state.session?.resumeUrl ?? gateway);
    } catch {
      return { kind: 'refused', reason: 'invalid_url' };
    }
    const socket = await openMessageSocket(url, signal);
    if (socket === undefined)
      return signal.aborted ? { kind: 'stopped' } : { kind: 'failed', reason: 'network_error' };
    const end = await runSession(socket, context, options, state);
    if (end === 'identify') {
      state.session = undefined;
      state.seq = null;
      // The Gateway asks for a pause of 1 to 5 seconds before identifying again.
      await delay(1000 + 4000 * options.random(), undefined, { signal }).catch(() => undefined);
    } else if (end !== 'resume') return end;
  }
  return { kind: 'stopped' };
}

async function runSession(
  socket: MessageSocket,
  context: ListenContext,
  options: DiscordListenOptions,
  state: GatewayState,
): Promise<SessionEnd> {
  let heartbeat: NodeJS.Timeout | undefined;
  let acknowledged = true;
  const beat = () => {
    if (!acknowledged) {
      // No acknowledgement since the last heartbeat: the connection is dead (a "zombie"); resume.
      socket.close(RESUMABLE_CLOSE);
      return;
    }
    acknowledged = false;
    socket.send(JSON.stringify({ op: HEARTBEAT, d: state.seq }));
  };
  try {
    for (;;) {
      const event = await socket.next();
      if (event.kind === 'aborted') return { kind: 'stopped' };
      if (event.kind === 'overflow') return { kind: 'failed', reason: 'socket_overflow' };
      if (event.kind === 'closed') {
        if (REFUSED_CLOSES.has(event.code)) {
          return { kind: 'refused', reason: event.code === 4004 ? 'credentials_refused' : 'gateway_refused' };
        }
        if (NEW_SESSION_CLOSES.has(event.code)) return 'identify';
        return state.session === undefined ? { kind: 'failed', reason: 'connection_reset' } : 'resume';
      }
      let message: { op?: unknown; d?: unknown; s?: unknown; t?: unknown };
      try {
        message = JSON.parse(event.text) as typeof message;
      } catch {
        continue;
      }
      if (typeof message.s === 'number') state.seq = message.s;
      switch (message.op) {
        case HELLO: {
          const interval = (message.d as { heartbeat_interval?: unknown } | null)?.heartbeat_interval;
          if (typeof interval !== 'number' || interval <= 0)
            return { kind: 'failed', reason: 'unexpected_answer' };
          clearTimeout(heartbeat);
          heartbeat = setTimeout(function first() {
            beat();
            heartbeat = setInterval(beat, interval);
          }, interval * options.random());
          socket.send(JSON.stringify(hello(options, state)));
          break;
        }
        case HEARTBEAT:
          socket.send(JSON.stringify({ op: HEARTBEAT, d: state.seq }));
          break;
        case HEARTBEAT_ACK:
          acknowledged = true;
          break;
        case RECONNECT:
          socket.close(RESUMABLE_CLOSE);
          return 'resume';
        case INVALID_SESSION:
          socket.close(RESUMABLE_CLOSE);
          return message.d === true && state.session !== undefined ? 'resume' : 'identify';
        case DISPATCH:
          await dispatched(message.t, message.d, context, options, state);
          break;
      }
    }
  } finally {
    clearTimeout(heartbeat);
    clearInterval(heartbeat);
  }
}

/** Resume (op 6) when a session is known, else Identify (op 2). */
function hello(options: DiscordListenOptions, state: GatewayState): Record<string, unknown> {
  if (state.session !== undefined) {
    return { op: RESUME, d: { token: options.botToken, session_id: state.session.id, seq: state.seq } };
  }
  return {
    op: IDENTIFY,
    d: {
      token: options.botToken,
      intents: INTENTS,
      properties: { os: process.platform, browser: 'notify', device: 'notify' },
    },
  };
}

async function dispatched(
  type: unknown,
  data: unknown,
  context: ListenContext,
  options: DiscordListenOptions,
  state: GatewayState,
): Promise<void> {
  if (type === 'READY') {
    const ready = data as { session_id?: unknown; resume_gateway_url?: unknown } | null;
    if (typeof ready?.session_id === 'string' && typeof ready.resume_gateway_url === 'string') {
      state.session = { id: ready.session_id, resumeUrl: ready.resume_gateway_url };
    }
    context.connected();
  } else if (type === 'RESUMED') {
    context.connected();
  } else if (type === 'INTERACTION_CREATE') {
    await pressed(data as Interaction | null, context, options);
  }
}

/** A button press: an allowed person's answer is applied; anyone else, or a refused answer, is told privately. */
async function pressed(
  interaction: Interaction | null,
  context: ListenContext,
  options: DiscordListenOptions,
) {
  if (interaction?.type !== MESSAGE_COMPONENT) return;
  const { id, token } = interaction;
  const customId = interaction.data?.custom_id;
  const userId = interaction.member?.user?.id ?? interaction.user?.id;
  if (typeof id !== 'string' || typeof token !== 'string' || typeof userId !== 'string') return;
  const decoded = typeof customId === 'string' ? decodeAnswerPayload(customId) : undefined;
  if (decoded === undefined) return;
  const reply = (body: Record<string, unknown>) =>
    callDiscord(
      options.apiUrl,
      'POST',
      `/interactions/${encodeURIComponent(id)}/${encodeURIComponent(token)}/callback`,
      undefined,
      body,
      AbortSignal.any([context.signal, AbortSignal.timeout(CALLBACK_TIMEOUT_MS)]),
    );
  const tell = (content: string) => reply({ type: CHANNEL_MESSAGE, data: { content, flags: EPHEMERAL } });
  if (!isAllowedUser(options.allowedUserIds, userId)) {
    await tell(NOT_ALLOWED_MESSAGE);
    return;
  }
  const outcome = await context.answer({ ...decoded, userId });
  // An applied answer shows when the outbox edits the message; the press itself only needs acknowledging.
  await (outcome.kind === 'applied' ? reply({ type: DEFERRED_UPDATE_MESSAGE }) : tell(outcome.message));
}
