import type { OutboundNotification } from '../../provider.js';

/**
 * The topics and payloads Notify publishes on an MQTT broker, and the answers it reads there. Pure.
 * A notification's state is retained under <prefix>/notifications/<id>; an empty retained message
 * takes it away (MQTT's way to delete a retained message). Home Assistant discovery documents follow
 * its MQTT discovery format: <discovery prefix>/<component>/<node id>/<object id>/config.
 */

const DISCOVERY_PREFIX = 'homeassistant';
/** The most actions a notification offers (docs/api.md): buttons beyond are removed on every change. */
const MAX_ACTIONS = 3;
/** The user a Home Assistant button answers as (its press cannot say who pressed it). */
export const HOME_ASSISTANT_USER = 'homeassistant';

export interface Publication {
  topic: string;
  payload: string;
}

export function stateTopic(prefix: string, notificationId: string): string {
  return `${prefix}/notifications/${notificationId}`;
}

export function answerTopic(prefix: string, notificationId: string): string {
  return `${stateTopic(prefix, notificationId)}/answer`;
}

/** Where the outcome of an answer is published, for whoever answered (not retained). */
export function outcomeTopic(prefix: string, notificationId: string): string {
  return `${answerTopic(prefix, notificationId)}/outcome`;
}

export function waitingTopic(prefix: string): string {
  return `${prefix}/waiting`;
}

/** The subscriptions of the listener: every state (for the waiting count) and every answer. */
export function listenTopics(prefix: string): string[] {
  return [`${prefix}/notifications/+`, `${prefix}/notifications/+/answer`];
}

/** What a topic the listener receives is about, or undefined for anything else. */
export function readTopic(
  prefix: string,
  topic: string,
): { kind: 'state' | 'answer'; notificationId: string } | undefined {
  const head = `${prefix}/notifications/`;
  if (!topic.startsWith(head)) return undefined;
  const parts = topic.slice(head.length).split('/');
  if (parts.length === 1 && parts[0] !== '') return { kind: 'state', notificationId: parts[0]! };
  if (parts.length === 2 && parts[0] !== '' && parts[1] === 'answer')
    return { kind: 'answer', notificationId: parts[0]! };
  return undefined;
}

/** The retained state document: the notification as the webhook body carries it. */
export function stateDocument(notification: OutboundNotification): string {
  return JSON.stringify(notification);
}

/** Whether a published state is a request still waiting for the person's answer. */
export function isWaiting(payload: string): boolean {
  try {
    const state = JSON.parse(payload) as Partial<OutboundNotification>;
    return state.status === 'active' && (state.actions?.length ?? 0) > 0 && state.answer === undefined;
  } catch {
    return false;
  }
}

/** Home Assistant's node id: one device per topic prefix, so two prefixes never share entities. */
function nodeId(prefix: string): string {
  return prefix.replace(/[^A-Za-z0-9_-]/g, '_');
}

function device(prefix: string): Record<string, unknown> {
  return { identifiers: [`notify_${nodeId(prefix)}`], name: `Notify (${prefix})`, manufacturer: 'Notify' };
}

/** The discovery document of the waiting-count sensor. */
export function sensorDiscovery(prefix: string): Publication {
  const node = nodeId(prefix);
  return {
    topic: `${DISCOVERY_PREFIX}/sensor/${node}/waiting/config`,
    payload: JSON.stringify({
      name: 'Waiting requests',
      unique_id: `notify_${node}_waiting`,
      state_topic: waitingTopic(prefix),
      icon: 'mdi:account-clock',
      device: device(prefix),
    }),
  };
}

function buttonTopic(prefix: string, notificationId: string, index: number): string {
  const node = nodeId(prefix);
  return `${DISCOVERY_PREFIX}/button/${node}/${notificationId.replace(/[^A-Za-z0-9_-]/g, '_')}_${index}/config`;
}

/**
 * A button per action while the request waits (its press publishes the answer, for the revision it
 * was made for), and empty retained documents for the rest, which Home Assistant takes as removals.
 */
export function buttonDiscovery(prefix: string, notification: OutboundNotification): Publication[] {
  const actions = notification.actions ?? [];
  const waiting = notification.status === 'active' && notification.answer === undefined;
  const publications: Publication[] = [];
  for (let index = 0; index < MAX_ACTIONS; index += 1) {
    const action = actions[index];
    const topic = buttonTopic(prefix, notification.id, index);
    if (!waiting || action === undefined) {
      publications.push({ topic, payload: '' });
      continue;
    }
    publications.push({
      topic,
      payload: JSON.stringify({
        name: `${notification.title}: ${action.label}`,
        unique_id: `notify_${nodeId(prefix)}_${notification.id}_${index}`,
        command_topic: answerTopic(prefix, notification.id),
        payload_press: JSON.stringify({
          action: action.id,
          revision: notification.revision ?? 1,
          user: HOME_ASSISTANT_USER,
        }),
        device: device(prefix),
      }),
    });
  }
  return publications;
}

/** An answer as published on the answer topic: {"action": id, "revision": n, "user": "..."}. */
export interface PublishedAnswer {
  action: string;
  revision: number;
  user?: string;
}

export function readAnswer(payload: string): PublishedAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { action, revision, user } = value as Record<string, unknown>;
  if (typeof action !== 'string' || action === '') return undefined;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) return undefined;
  if (user !== undefined && typeof user !== 'string') return undefined;
  return { action, revision, ...(user !== undefined && { user }) };
}
