import { EventEmitter } from 'node:events';
import type { StoredEvent } from './store.js';
import type { InboxItem } from './inbox-item.js';

/** What the hub carries: a change someone's live stream (or the push sender) should hear about. */
export type HubMessage =
  | { kind: 'event'; event: StoredEvent }
  | { kind: 'revoked'; installationId: string }
  | { kind: 'sessions-ended'; userId: string }
  | { kind: 'inbox'; userId: string; change: InboxChange }
  | { kind: 'push-queued' };

/**
 * Live fan-out: sender event streams, the inboxes open in browsers, the push sender. Alone, a relay
 * process hands each message to its own listeners; with a bus (PostgreSQL's LISTEN/NOTIFY, several
 * processes on one database) every message goes through the bus and reaches every process, this one
 * included, by deliver().
 */
export class Hub {
  private readonly emitter = new EventEmitter();
  private publish: (message: HubMessage) => void = (message) => this.deliver(message);

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  useBus(publish: (message: HubMessage) => void): void {
    this.publish = publish;
  }

  /** A message from the bus (or from this process when alone): to the listeners here. */
  deliver(message: HubMessage): void {
    switch (message.kind) {
      case 'event':
        return void this.emitter.emit(`event:${message.event.installationId}`, message.event);
      case 'revoked':
        return void this.emitter.emit(`revoked:${message.installationId}`);
      case 'sessions-ended':
        return void this.emitter.emit(`sessions-ended:${message.userId}`);
      case 'inbox':
        return void this.emitter.emit(`inbox:${message.userId}`, message.change);
      case 'push-queued':
        return void this.emitter.emit('push-queued');
    }
  }

  onEvent(installationId: string, listener: (event: StoredEvent) => void): () => void {
    return this.subscribe(`event:${installationId}`, listener);
  }

  emitEvent(event: StoredEvent): void {
    this.publish({ kind: 'event', event });
  }

  onRevoked(installationId: string, listener: () => void): () => void {
    return this.subscribe(`revoked:${installationId}`, listener);
  }

  emitRevoked(installationId: string): void {
    this.publish({ kind: 'revoked', installationId });
  }

  /** Some of the person's sessions ended (revoked, password changed, person removed). */
  onSessionsEnded(userId: string, listener: () => void): () => void {
    return this.subscribe(`sessions-ended:${userId}`, listener);
  }

  emitSessionsEnded(userId: string): void {
    this.publish({ kind: 'sessions-ended', userId });
  }

  onInbox(userId: string, listener: (change: InboxChange) => void): () => void {
    return this.subscribe(`inbox:${userId}`, listener);
  }

  emitInbox(userId: string, change: InboxChange): void {
    this.publish({ kind: 'inbox', userId, change });
  }

  /** Pushes were queued: the push sender looks at its queue now. */
  onPushQueued(listener: () => void): () => void {
    return this.subscribe('push-queued', listener);
  }

  emitPushQueued(): void {
    this.publish({ kind: 'push-queued' });
  }

  private subscribe<T>(channel: string, listener: (value: T) => void): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }
}

export type InboxChange = { kind: 'changed'; item: InboxItem } | { kind: 'removed'; installationId: string };
