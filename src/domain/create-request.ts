import { readActions } from './answers.js';
import { InvalidRequestError } from './errors.js';
import {
  isJsonObject,
  readNonNegativeInteger,
  readText,
  rejectUnknownFields,
  requireObjectBody,
} from './fields.js';
import type { Metadata, NotificationDraft } from './notification.js';
import { readOrigin } from './origin.js';
import { DEFAULT_TYPE, normalizeType } from './notification-type.js';
import { normalizePriority, type Priority } from './priority.js';
import { utf8ByteLength } from './text.js';

export const MAX_METADATA_BYTES = 8192;

const FIELDS = [
  'title',
  'message',
  'type',
  'priority',
  'agent',
  'agentInstance',
  'project',
  'key',
  'cwd',
  'pid',
  'metadata',
  'actions',
  'origin',
] as const;

/** A validated native create; priority stays open until the type catalog is consulted. */
export type CreateRequest = Omit<NotificationDraft, 'priority'> & { priority?: Priority };

/** Validates the body of POST /v1/notifications (spec tables "POST /v1/notifications" and "Limits"). */
export function parseCreateRequest(body: unknown): CreateRequest {
  const input = requireObjectBody(body);
  rejectUnknownFields(input, FIELDS);
  const request: CreateRequest = {
    title: readText(input, 'title', { max: 200, required: true }),
    message: readText(input, 'message', { max: 4000, required: true }),
    type: readType(input),
    agent: readText(input, 'agent', { max: 100 }) ?? 'unknown',
  };
  assign(request, 'priority', readPriority(input));
  assign(request, 'agentInstance', readText(input, 'agentInstance', { max: 100 }));
  assign(request, 'project', readText(input, 'project', { max: 200 }));
  assign(request, 'key', readText(input, 'key', { max: 100 }));
  assign(request, 'cwd', readText(input, 'cwd', { max: 1024 }));
  assign(request, 'pid', readNonNegativeInteger(input, 'pid'));
  assign(request, 'metadata', readMetadata(input));
  assign(request, 'actions', readActions(input));
  assign(request, 'origin', readOrigin(input['origin']));
  return request;
}

function assign<K extends keyof CreateRequest>(
  target: CreateRequest,
  field: K,
  value: CreateRequest[K],
): void {
  if (value !== undefined) target[field] = value;
}

function readType(input: Record<string, unknown>): string {
  const value = input['type'];
  if (value === undefined || value === null) return DEFAULT_TYPE;
  const type = typeof value === 'string' ? normalizeType(value) : undefined;
  if (type === undefined) {
    throw new InvalidRequestError(
      'type must be an identifier: a lowercase letter, then up to 63 lowercase letters, digits or underscores',
    );
  }
  return type;
}

function readPriority(input: Record<string, unknown>): Priority | undefined {
  const value = input['priority'];
  if (value === undefined || value === null) return undefined;
  const priority = typeof value === 'string' ? normalizePriority(value) : undefined;
  if (priority === undefined)
    throw new InvalidRequestError('priority must be low, normal, high, or critical');
  return priority;
}

function readMetadata(input: Record<string, unknown>): Metadata | undefined {
  const value = input['metadata'];
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw new InvalidRequestError('metadata must be a JSON object');
  if (exceedsMetadataLimit(value)) {
    throw new InvalidRequestError(`metadata must be at most ${MAX_METADATA_BYTES} bytes`);
  }
  return value;
}

/**
 * JSON.stringify recurses: nesting a few thousand levels deep (which fits in a 64 KiB body) overflows
 * the stack. Such a value serializes to far more than the limit, so it is too large, not a 500.
 */
function exceedsMetadataLimit(value: Metadata): boolean {
  try {
    return utf8ByteLength(JSON.stringify(value)) > MAX_METADATA_BYTES;
  } catch (error) {
    if (error instanceof RangeError) return true;
    throw error;
  }
}
