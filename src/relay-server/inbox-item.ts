import type { Stored } from './domain/delivery.js';

/** The inbox's JSON shape of a delivered notification (docs/relay-protocol.md, Browser API). */
export interface InboxItem {
  inbox_id: string;
  installation: { id: string; name: string };
  id: string;
  lifecycle: number;
  /** The relay's revision of what this item shows: an answer names it. */
  revision: number;
  title: string;
  message: string;
  type: string;
  priority: string;
  agent: string;
  project?: string;
  status: string;
  actions: { id: string; label: string }[];
  answer?: { action: string; answered_at: string };
  created_at: string;
  updated_at: string;
  /** When the relay received this lifecycle: the inbox orders and dates rows by it. */
  received_at: string;
}

export function inboxItem(stored: Stored, installationName: string): InboxItem {
  return {
    inbox_id: String(stored.inboxId),
    installation: { id: stored.installationId, name: installationName },
    id: stored.notificationId,
    lifecycle: stored.lifecycle,
    revision: stored.revision,
    title: stored.title,
    message: stored.message,
    type: stored.type,
    priority: stored.priority,
    agent: stored.agent,
    ...(stored.project !== null && { project: stored.project }),
    status: stored.status,
    actions: stored.actions,
    ...(stored.answerAction !== null && {
      answer: { action: stored.answerAction, answered_at: stored.answeredAt! },
    }),
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
    received_at: new Date(stored.receivedAt).toISOString(),
  };
}
