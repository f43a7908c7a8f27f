import { EventEmitter } from 'node:events';
import type { StoredEvent } from './store.js';
import type { InboxItem } from './inbox-item.js';

/** Live fan-out inside one relay process: sender event streams and the inboxes open in browsers. */
export class Hub {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  onEvent(installationId: string, listener: (event: StoredEvent) => void): () => void {
    return this.subscribe(`event:${installationId}`, listener);
  }

  emitEvent(event: StoredEvent): void {
    this.emitter.emit(`event:${event.installationId}`, event);
  }

  onRevoked(installationId: string, listener: () => void): () => void {
    return this.subscribe(`revoked:${installationId}`, listener);
  }

  emitRevoked(installationId: string): void {
    this.emitter.emit(`revoked:${installationId}`);
  }

  /** Some of the person's sessions ended (revoked, password changed, person removed). */
  onSessionsEnded(userId: string, listener: () => void): () => void {
    return this.subscribe(`sessions-ended:${userId}`, listener);
  }

  emitSessionsEnded(userId: string): void {
    this.emitter.emit(`sessions-ended:${userId}`);
  }

  onInbox(userId: string, listener: (change: InboxChange) => void): () => void {
    return this.subscribe(`inbox:${userId}`, listener);
  }

  emitInbox(userId: string, change: InboxChange): void {
    this.emitter.emit(`inbox:${userId}`, change);
  }

  /** Pushes were queued in relay.db: the push sender looks at its queue now. */
  onPushQueued(listener: () => void): () => void {
    return this.subscribe('push-queued', listener);
  }

  emitPushQueued(): void {
    this.emitter.emit('push-queued');
  }

  private subscribe<T>(channel: string, listener: (value: T) => void): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }
}

export type InboxChange = { kind: 'changed'; item: InboxItem } | { kind: 'removed'; installationId: string };
