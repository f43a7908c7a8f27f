import { InvalidRequestError } from './errors.js';

/** The one answer an agent token gets for anything outside its own notifications (HTTP 403). */
export const AGENT_TOKEN_REFUSAL = 'this token may only raise and follow its own notifications';

/** An agent token is refused something only the owner token may do, or another's notification. */
export class AgentTokenRefusedError extends Error {
  override name = 'AgentTokenRefusedError';
  constructor() {
    super(AGENT_TOKEN_REFUSAL);
  }
}

/** A host name fits: the name is what every surface shows before the agent ("api-box · claude-code"). */
const NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** The longest an agent token may live: a year. */
export const MAX_TOKEN_LIFETIME_SECONDS = 366 * 24 * 60 * 60;

export interface AgentTokenRequest {
  name: string;
  /** Absent: the token works until revoked. */
  expiresInSeconds?: number;
}

/** Reads POST /v1/tokens: `{name, expiresInSeconds?}`; anything else is refused. */
export function parseAgentTokenRequest(body: unknown): AgentTokenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidRequestError('the body must be a JSON object such as {"name": "api-box"}');
  const fields = body as Record<string, unknown>;
  for (const field of Object.keys(fields)) {
    if (field !== 'name' && field !== 'expiresInSeconds')
      throw new InvalidRequestError(`unknown field "${field}"; allowed fields are name, expiresInSeconds`);
  }
  const name = checkTokenName(fields['name']);
  const expires = fields['expiresInSeconds'];
  if (expires === undefined) return { name };
  if (
    !Number.isInteger(expires) ||
    (expires as number) < 60 ||
    (expires as number) > MAX_TOKEN_LIFETIME_SECONDS
  )
    throw new InvalidRequestError(
      `expiresInSeconds must be a whole number from 60 to ${MAX_TOKEN_LIFETIME_SECONDS} (a year)`,
    );
  return { name, expiresInSeconds: expires as number };
}

export function checkTokenName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new InvalidRequestError(
      'name must be 1-63 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit (a host name such as api-box)',
    );
  return name;
}

/** `30d`, `12h`, `90m` as seconds; undefined when the text is none of those. */
export function parseLifetime(text: string): number | undefined {
  const match = /^(\d{1,6})([dhm])$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { d: 86_400, h: 3600, m: 60 }[match[2] as 'd' | 'h' | 'm'];
  return Number(match[1]) * unit;
}
