import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrokerProcess } from '../support/broker-process.js';

/** The published schema file (tests run from dist/test/arc). */
export const SCHEMA_FILE = fileURLToPath(new URL('../../../schemas/arc-0.1.schema.json', import.meta.url));

export function readSchema(): object {
  return JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object;
}

export type Json = Record<string, unknown>;

let counter = 0;

/** A string unique within this test process. */
export function unique(prefix: string): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}`;
}

/** A valid unkeyed request.created with a fresh event_id; top-level fields are replaced by `overrides`. */
export function arcEvent(overrides: Json = {}): Json {
  return {
    arc_version: '0.1',
    event_id: unique('evt'),
    event_type: 'request.created',
    occurred_at: '2026-05-01T12:00:00Z',
    sender: { id: 'ci-bot' },
    request: { kind: 'question', message: 'Deploy to production?' },
    ...overrides,
  };
}

/** A valid event of the given type for a condition key. */
export function keyedEvent(
  eventType: 'request.created' | 'request.updated' | 'request.resolved',
  key: string,
  request: Json = {},
  overrides: Json = {},
): Json {
  const body =
    eventType === 'request.resolved'
      ? { key, ...request }
      : { key, kind: 'blocked', message: 'Waiting for review', ...request };
  return arcEvent({ event_type: eventType, request: body, ...overrides });
}

export const DELETE = Symbol('delete');

/** A deep copy of `value` with the property at `path` set, or removed when `to` is DELETE. */
export function withPath(value: Json, path: readonly string[], to: unknown): Json {
  const copy = structuredClone(value);
  let node: Json = copy;
  for (const segment of path.slice(0, -1)) {
    if (typeof node[segment] !== 'object' || node[segment] === null) node[segment] = {};
    node = node[segment] as Json;
  }
  const last = path.at(-1)!;
  if (to === DELETE) delete node[last];
  else node[last] = to;
  return copy;
}

/** `n` characters (code points), starting with a recognizable seed so values stay unique. */
export function text(n: number, seed = ''): string {
  const head = seed.slice(0, n);
  return head + 'a'.repeat(n - head.length);
}

export interface Reply {
  status: number;
  body: Json;
}

export async function post(broker: BrokerProcess, body: unknown): Promise<Reply> {
  const response = await broker.request('POST', '/v1/events', body);
  const raw = await response.text();
  return { status: response.status, body: raw === '' ? {} : (JSON.parse(raw) as Json) };
}

/** The newest 500 notifications, whole: any create or change between two snapshots shows. */
export async function snapshot(broker: BrokerProcess): Promise<unknown[]> {
  const response = await broker.request('GET', '/v1/notifications?limit=500');
  return (await response.json()) as unknown[];
}

export async function getNotification(broker: BrokerProcess, id: string): Promise<Json> {
  const response = await broker.request('GET', `/v1/notifications/${id}`);
  return (await response.json()) as Json;
}
