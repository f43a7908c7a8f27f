import { InvalidRequestError } from './errors.js';
import { isStatus, type Status } from './notification.js';
import { normalizeType } from './notification-type.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 500;
/** The longest search text `q` takes. */
export const MAX_SEARCH_CHARACTERS = 200;
export const MAX_SEARCH_WORDS = 10;

export interface ListFilter {
  status?: Status;
  type?: string;
  project?: string;
  agent?: string;
  key?: string;
  /** Only the notifications raised with this agent token (what such a token may list). */
  raisedBy?: string;
  /** Search (`q`): every word appears in the title, message, agent or project, ignoring ASCII case. */
  words?: string[];
  /** Cursor paging (`before`): only notifications older than this position. */
  before?: number;
  /** Cursor paging was asked for (`page=1` or `before`): the answer names the next page's cursor. */
  paged?: boolean;
  limit: number;
}

type QueryValue = string | string[] | undefined;

/** Reads the query of GET /v1/notifications; a repeated parameter takes its last value. */
export function parseListQuery(query: Record<string, QueryValue>): ListFilter {
  const filter: ListFilter = { limit: parseLimit(single(query['limit'])) };
  const status = single(query['status']);
  if (status !== undefined) {
    const folded = status.trim().toLowerCase();
    if (!isStatus(folded)) throw new InvalidRequestError('status must be one of active, dismissed, resolved');
    filter.status = folded;
  }
  if (parseBoolean('unresolved', single(query['unresolved']))) filter.status = 'active';
  const type = single(query['type']);
  if (type !== undefined) {
    const normalized = normalizeType(type);
    if (normalized === undefined) {
      throw new InvalidRequestError(
        'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
      );
    }
    filter.type = normalized;
  }
  const project = single(query['project'])?.trim();
  if (project) filter.project = project;
  const agent = single(query['agent'])?.trim();
  if (agent) filter.agent = agent;
  const key = single(query['key'])?.trim();
  if (key) filter.key = key;
  const words = parseSearch(single(query['q']));
  if (words.length > 0) filter.words = words;
  const page = single(query['page']);
  if (page !== undefined) {
    if (page.trim() !== '1')
      throw new InvalidRequestError(
        'page must be 1: ask for the first page with page=1, then for each next one with before=<its X-Next-Cursor>',
      );
    filter.paged = true;
  }
  const before = single(query['before']);
  if (before !== undefined) {
    filter.before = parseCursor(before);
    filter.paged = true;
  }
  return filter;
}

function parseSearch(value: string | undefined): string[] {
  if (value === undefined) return [];
  if ([...value].length > MAX_SEARCH_CHARACTERS)
    throw new InvalidRequestError(`q must be at most ${MAX_SEARCH_CHARACTERS} characters`);
  const words = [...new Set(value.trim().split(/\s+/).filter(Boolean))];
  if (words.length > MAX_SEARCH_WORDS)
    throw new InvalidRequestError(`q may hold at most ${MAX_SEARCH_WORDS} words`);
  return words;
}

const CURSOR_PREFIX = 'n1.';

/** The opaque cursor of the page after the notification at this position (its seq). */
export function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`, 'utf8').toString('base64url');
}

function parseCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const seq = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1 || !/^\d+$/.test(text.slice(CURSOR_PREFIX.length)))
    throw new InvalidRequestError("before must be the X-Next-Cursor header of a previous page's answer");
  return seq;
}

function single(value: QueryValue): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_LIST_LIMIT;
  if (!/^[+-]?\d+$/.test(value.trim())) throw new InvalidRequestError('limit must be an integer');
  return Math.min(MAX_LIST_LIMIT, Math.max(1, Number(value)));
}

const TRUE_WORDS = ['true', '1', 'yes', ''];
const FALSE_WORDS = ['false', '0', 'no'];

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const folded = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(folded)) return true;
  if (FALSE_WORDS.includes(folded)) return false;
  throw new InvalidRequestError(`${name} must be true or false`);
}
