import { sendHttp } from '../../http-delivery.js';
import type { DeliveryResult, SettingValues } from '../../provider.js';
import { requiredString } from '../../setting-values.js';

/**
 * One call of the Matrix client-server API (https://spec.matrix.org/latest/client-server-api/) with
 * the access token as a Bearer header. A refusal carries `errcode` and, for M_LIMIT_EXCEEDED,
 * `retry_after_ms` in its body; only reason codes leave this file.
 */

export type MatrixAnswer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; failure: Exclude<DeliveryResult, { outcome: 'delivered' }> };

export function roomPath(settings: SettingValues, rest: string): string {
  return `/_matrix/client/v3/rooms/${encodeURIComponent(requiredString(settings, 'roomId'))}/${rest}`;
}

function parse(body: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body ?? '');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function callMatrix(
  settings: SettingValues,
  method: 'GET' | 'PUT',
  path: string,
  signal: AbortSignal,
  content?: unknown,
): Promise<MatrixAnswer> {
  const base = requiredString(settings, 'homeserverUrl').replace(/\/+$/, '');
  const answer = await sendHttp(
    {
      method,
      url: `${base}${path}`,
      headers: {
        authorization: `Bearer ${requiredString(settings, 'accessToken')}`,
        ...(content !== undefined && { 'content-type': 'application/json' }),
      },
      ...(content !== undefined && { body: JSON.stringify(content) }),
    },
    signal,
  );
  const body = parse(answer.body);
  if (answer.result.outcome !== 'delivered') {
    const waitMs = body?.['retry_after_ms'];
    if (answer.result.outcome === 'retry' && typeof waitMs === 'number' && waitMs >= 0)
      return { ok: false, failure: { ...answer.result, retryAfterMs: waitMs } };
    return { ok: false, failure: answer.result };
  }
  if (body === undefined) return { ok: false, failure: { outcome: 'reject', reason: 'unexpected_answer' } };
  return { ok: true, body };
}
