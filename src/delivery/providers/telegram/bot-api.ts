import { sendHttp } from '../../http-delivery.js';
import type { DeliveryResult, SettingValues } from '../../provider.js';
import { requiredString } from '../../setting-values.js';

/**
 * One Bot API call (https://core.telegram.org/bots/api#making-requests): a JSON POST to
 * `<apiUrl>/bot<token>/<method>`, answered with `{ok, result}` or `{ok: false, error_code,
 * description, parameters}`. The token is part of the URL path, so neither the URL nor the service's
 * description is ever put in a result: only reason codes leave this file.
 */

export type BotAnswer =
  | { ok: true; result: unknown }
  | { ok: false; failure: Exclude<DeliveryResult, { outcome: 'delivered' }>; description: string };

interface BotReply {
  ok?: unknown;
  result?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
}

export const DEFAULT_API_URL = 'https://api.telegram.org';

function methodUrl(settings: SettingValues, method: string): string {
  const base = (requiredString(settings, 'apiUrl') || DEFAULT_API_URL).replace(/\/+$/, '');
  return `${base}/bot${requiredString(settings, 'botToken')}/${method}`;
}

function parse(body: string | undefined): BotReply | undefined {
  try {
    const value: unknown = JSON.parse(body ?? '');
    return typeof value === 'object' && value !== null ? (value as BotReply) : undefined;
  } catch {
    return undefined;
  }
}

export async function callBot(
  settings: SettingValues,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<BotAnswer> {
  const answer = await sendHttp(
    {
      method: 'POST',
      url: methodUrl(settings, method),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    },
    signal,
  );
  const reply = parse(answer.body);
  const description = typeof reply?.description === 'string' ? reply.description : '';
  if (answer.result.outcome !== 'delivered') {
    // The Bot API says how long to wait in the body (parameters.retry_after, seconds), not always in
    // a Retry-After header.
    const seconds = reply?.parameters?.retry_after;
    if (answer.result.outcome === 'retry' && typeof seconds === 'number' && seconds >= 0)
      return { ok: false, failure: { ...answer.result, retryAfterMs: seconds * 1000 }, description };
    return { ok: false, failure: answer.result, description };
  }
  if (reply?.ok !== true) {
    return { ok: false, failure: { outcome: 'reject', reason: 'unexpected_answer' }, description };
  }
  return { ok: true, result: reply.result };
}
