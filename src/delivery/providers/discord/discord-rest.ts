import { sendHttp, type OutboundRequest } from '../../http-delivery.js';
import type { DeliveryResult } from '../../provider.js';

/**
 * One call of Discord's HTTP API (https://discord.com/developers/docs/reference): JSON with the bot
 * token as `Authorization: Bot …` and the User-Agent Discord asks bots to send. A 429 says in its JSON
 * body how many seconds to wait (`retry_after`, with a fraction); that is honoured before the rounded
 * Retry-After header.
 */

export const DISCORD_API_URL = 'https://discord.com/api/v10';

const USER_AGENT = 'DiscordBot (https://www.npmjs.com/package/agent-notify, 0.1)';

export type DiscordCall =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; result: Exclude<DeliveryResult, { outcome: 'delivered' }> };

/** `retry_after` of a 429's body in milliseconds, when it is a usable number of seconds. */
function retryAfterOf(body: string | undefined): number | undefined {
  try {
    const seconds = (JSON.parse(body ?? '') as { retry_after?: unknown }).retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? Math.ceil(seconds * 1000)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function callDiscord(
  apiUrl: string,
  method: OutboundRequest['method'],
  path: string,
  token: string | undefined,
  payload: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<DiscordCall> {
  const answer = await sendHttp(
    {
      method,
      url: `${apiUrl.replace(/\/+$/, '')}${path}`,
      headers: {
        'user-agent': USER_AGENT,
        ...(token !== undefined && { authorization: `Bot ${token}` }),
        ...(payload !== undefined && { 'content-type': 'application/json' }),
      },
      ...(payload !== undefined && { body: JSON.stringify(payload) }),
    },
    signal,
  );
  const result = answer.result;
  if (result.outcome === 'retry' && result.status === 429) {
    const retryAfterMs = retryAfterOf(answer.body) ?? result.retryAfterMs;
    return { ok: false, result: retryAfterMs === undefined ? result : { ...result, retryAfterMs } };
  }
  if (result.outcome !== 'delivered') return { ok: false, result };
  if (answer.body === undefined || answer.body === '') return { ok: true, body: {} };
  try {
    const body = JSON.parse(answer.body) as unknown;
    return typeof body === 'object' && body !== null
      ? { ok: true, body: body as Record<string, unknown> }
      : { ok: false, result: { outcome: 'retry', reason: 'unexpected_answer' } };
  } catch {
    return { ok: false, result: { outcome: 'retry', reason: 'unexpected_answer' } };
  }
}
