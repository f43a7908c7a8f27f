import { InvalidRequestError } from './errors.js';
import { isStatus, type Status } from './notification.js';
import { normalizeType } from './notification-type.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 500;

export interface ListFilter {
  status?: Status;
  type?: string;
  project?: string;
  agent?: string;
  key?: string;
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
  return filter;
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
