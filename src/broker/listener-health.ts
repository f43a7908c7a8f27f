import type { ListenerHealth } from '../domain/channel-answer.js';
import type { Clock } from './clock.js';

/**
 * How each provider that carries answers back is listening (a channel's listen(), the relay's event
 * stream), for `listening` in the providers API. `since` moves only when the state or reason changes,
 * so it says how long the present trouble (or the good spell) has lasted.
 */
export class ListenerHealthBoard {
  readonly #health = new Map<string, ListenerHealth>();

  constructor(private readonly clock: Clock) {}

  set(providerId: string, health: Omit<ListenerHealth, 'since'>): void {
    const previous = this.#health.get(providerId);
    if (previous?.state === health.state && previous.reason === health.reason) return;
    this.#health.set(providerId, { ...health, since: this.clock() });
  }

  get(providerId: string): ListenerHealth | undefined {
    return this.#health.get(providerId);
  }

  delete(providerId: string): void {
    this.#health.delete(providerId);
  }
}
