import type { FastifyReply } from 'fastify';

export type ErrorCode =
  | 'invalid_request'
  | 'invalid_auth'
  | 'csrf'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'server_error'
  | 'storage_full';

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_auth: 401,
  csrf: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  server_error: 500,
  storage_full: 507,
};

/** docs/relay-protocol.md: one error shape whatever the status. */
export function sendError(
  reply: FastifyReply,
  error: ErrorCode,
  description: string,
  retryAfterSeconds?: number,
): FastifyReply {
  if (error === 'invalid_auth') reply.header('www-authenticate', 'Bearer');
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply
    .code(STATUS[error])
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error, error_description: description }));
}
