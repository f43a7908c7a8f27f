import { within } from './wait-for.js';

/**
 * What a stand-in received, in order, each handed to one caller of next(): "the next message" of a
 * test or a bench, woken the moment it arrives (no polling, so a bench can time it).
 */
export class Arrivals<T> {
  private readonly unawaited: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];

  add(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.unawaited.push(item);
  }

  /** The first item not yet taken, or the next to arrive; fails naming `what` after `timeoutMs`. */
  next(what: string, timeoutMs?: number): Promise<T> {
    return within(
      new Promise<T>((resolve) => {
        if (this.unawaited.length > 0) resolve(this.unawaited.shift()!);
        else this.waiters.push(resolve);
      }),
      what,
      timeoutMs,
    );
  }
}
