/**
 * What a phone push carries and how it is sent (docs/relay-protocol.md "Phone push"), free of I/O: the
 * JSON payload within 2 KB, its TTL, Urgency and Topic.
 */
import { createHash } from 'node:crypto';
import type { Action, Priority, RelayStatus, Stored } from './delivery.js';

/** The payload's size before encryption, never more (the push services take about 4 KB after it). */
export const MAX_PUSH_PAYLOAD_BYTES = 2048;
/** How long a push service keeps an undelivered push: a day at most. */
export const MAX_PUSH_TTL_SECONDS = 24 * 3600;
/** How long an active notification can still be answered by a push: a day after the relay received it. */
export const PUSH_ANSWERABLE_MS = MAX_PUSH_TTL_SECONDS * 1000;
export const GENERIC_TITLE = 'An agent needs you';

export const PUSH_PRIVACY = ['full', 'title', 'generic'] as const;
/** What a lock screen may show: full text, the title only, or a generic line (details after the tap). */
export type PushPrivacy = (typeof PUSH_PRIVACY)[number];

export interface PushPayload {
  id: string;
  lifecycle: number;
  revision: number;
  /** active, or resolved/dismissed: the push that closes the alert. */
  status: RelayStatus;
  title: string;
  body: string;
  agent: string;
  project?: string;
  type: string;
  priority: Priority;
  actions: Action[];
  answer?: { url: string; token: string };
}

export interface PayloadOptions {
  privacy: PushPrivacy;
  answer?: { url: string; token: string };
  /** The push service refused the full size (413): the title alone, cut short. */
  shortened: boolean;
}

/** Whether the person can answer this from the push: active, with actions to choose from. */
export function answerable(stored: Stored): boolean {
  return stored.status === 'active' && stored.actions.length > 0;
}

/** The payload for one device, cut to fit MAX_PUSH_PAYLOAD_BYTES (body first, then project, title, agent). */
export function pushPayload(stored: Stored, options: PayloadOptions): string {
  const full = options.privacy === 'full';
  const payload: PushPayload = {
    id: stored.notificationId,
    lifecycle: stored.lifecycle,
    revision: stored.revision,
    status: stored.status,
    title: options.privacy === 'generic' ? GENERIC_TITLE : stored.title,
    body: full && stored.messageIncluded && !options.shortened ? stored.message : '',
    agent: stored.agent,
    ...(stored.project !== null && options.privacy !== 'generic' && { project: stored.project }),
    type: stored.type,
    priority: stored.priority,
    actions: stored.status === 'active' ? stored.actions : [],
    ...(options.answer && answerable(stored) && { answer: options.answer }),
  };
  if (options.shortened) {
    payload.title = cut(payload.title, 60);
    delete payload.project;
  }
  return fitted(payload);
}

/** The test push of "Send test": what a device shows when alerts reach it. */
export function testPayload(): string {
  const payload: PushPayload = {
    id: 'notify-relay-test',
    lifecycle: 1,
    revision: 1,
    status: 'active',
    title: 'Notify test',
    body: 'Alerts reach this device.',
    agent: 'notify-relay',
    type: 'test',
    priority: 'normal',
    actions: [],
  };
  return JSON.stringify(payload);
}

const bytes = (payload: PushPayload): number => Buffer.byteLength(JSON.stringify(payload), 'utf8');

function fitted(payload: PushPayload): string {
  for (const field of ['body', 'project', 'title', 'agent'] as const) {
    if (bytes(payload) <= MAX_PUSH_PAYLOAD_BYTES) break;
    const text = payload[field];
    if (text === undefined) continue;
    // The longest cut of this field that fits, found by halving (code points: no half surrogate pair).
    const points = Array.from(text);
    let low = 0;
    let high = points.length;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      payload[field] = cut(text, middle);
      if (bytes(payload) <= MAX_PUSH_PAYLOAD_BYTES) low = middle;
      else high = middle - 1;
    }
    payload[field] = cut(text, low);
  }
  return JSON.stringify(payload);
}

/** At most `max` code points, with an ellipsis when it was cut. */
function cut(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return max === 0 ? '' : `${points.slice(0, max - 1).join('')}…`;
}

/** High for permission requests and critical ones (the phone wakes for them), normal otherwise. */
export function pushUrgency(stored: Pick<Stored, 'type' | 'priority'>): 'high' | 'normal' {
  return stored.type === 'permission_required' || stored.priority === 'critical' ? 'high' : 'normal';
}

/**
 * Seconds a push service keeps it: an active one until it can no longer be answered (a day after the
 * relay received it), an ended one a day, so a phone that comes back later still closes its alert.
 */
export function pushTtlSeconds(stored: Pick<Stored, 'status' | 'receivedAt'>, now: number): number {
  if (stored.status !== 'active') return MAX_PUSH_TTL_SECONDS;
  const left = Math.floor((stored.receivedAt + PUSH_ANSWERABLE_MS - now) / 1000);
  return Math.max(0, Math.min(MAX_PUSH_TTL_SECONDS, left));
}

/** RFC 8030 Topic: one per notification (32 base64url characters), so a newer push replaces one not yet delivered. */
export function pushTopic(installationId: string, notificationId: string): string {
  return createHash('sha256').update(`${installationId}\n${notificationId}`).digest('base64url').slice(0, 32);
}
