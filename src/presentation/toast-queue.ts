import type { ToastContent } from './toast-style.js';

/** One notification's toast: open on the desktop (or being opened), or waiting for a slot. */
export interface ToastEntry {
  content: ToastContent;
  state: 'open' | 'queued';
  /** The display's id once the show call answered; 0 before. */
  displayId: number;
  /** Arrival order, for first-come among the same urgency. */
  seq: number;
}

/** What the queue asks its display to do, in order. Commands name entries, not ids: a show may still be in flight. */
export type ToastCommand = { op: 'show'; entry: ToastEntry } | { op: 'close'; entry: ToastEntry };

/**
 * Which toasts are open and which wait (issue 8): at most `maxVisible()` open; waiting ones are shown
 * critical first, then in arrival order, as slots free. Pure bookkeeping; the presenter runs the commands.
 */
export class ToastQueue {
  readonly #entries = new Map<string, ToastEntry>();
  #openCount = 0;
  #seq = 0;

  constructor(private readonly maxVisible: () => number) {}

  get openCount(): number {
    return this.#openCount;
  }

  get queuedCount(): number {
    return this.#entries.size - this.#openCount;
  }

  /** A stored notification to show: replaces its open toast, refreshes its queued one, or takes a slot. */
  upsert(content: ToastContent): ToastCommand[] {
    const existing = this.#entries.get(content.notificationId);
    if (existing) {
      existing.content = content;
      return existing.state === 'open' ? [{ op: 'show', entry: existing }] : this.fill();
    }
    const entry: ToastEntry = { content, state: 'queued', displayId: 0, seq: this.#seq++ };
    this.#entries.set(content.notificationId, entry);
    return this.fill();
  }

  /** The notification is no longer active: close its toast, or drop it unseen from the queue. */
  remove(notificationId: string): ToastCommand[] {
    const entry = this.#entries.get(notificationId);
    if (!entry) return [];
    this.#entries.delete(notificationId);
    if (entry.state === 'queued') return [];
    this.#openCount--;
    return [{ op: 'close', entry }, ...this.fill()];
  }

  /** A show that failed: the toast never opened, so its slot goes to the next without a close. */
  forget(notificationId: string): ToastCommand[] {
    const entry = this.#entries.get(notificationId);
    if (!entry) return [];
    this.#entries.delete(notificationId);
    if (entry.state === 'open') this.#openCount--;
    return this.fill();
  }

  /** The display closed a toast (expired, clicked away, or closed by us): its slot goes to the next. */
  closed(displayId: number): ToastCommand[] {
    const entry = this.byDisplayId(displayId);
    if (!entry) return [];
    this.#entries.delete(entry.content.notificationId);
    this.#openCount--;
    return this.fill();
  }

  byDisplayId(displayId: number): ToastEntry | undefined {
    if (displayId === 0) return undefined;
    for (const entry of this.#entries.values()) {
      if (entry.state === 'open' && entry.displayId === displayId) return entry;
    }
    return undefined;
  }

  /** A toast was asked for whose display id is not known yet. */
  hasShowInFlight(): boolean {
    for (const entry of this.#entries.values())
      if (entry.state === 'open' && entry.displayId === 0) return true;
    return false;
  }

  /** The display went away and took its toasts: forget them all, nothing left to close. */
  clear(): void {
    this.#entries.clear();
    this.#openCount = 0;
  }

  /** Opens waiting toasts while slots are free (also after maxVisibleToasts grew). */
  fill(): ToastCommand[] {
    const commands: ToastCommand[] = [];
    while (this.#openCount < this.maxVisible()) {
      const next = this.nextQueued();
      if (!next) break;
      next.state = 'open';
      this.#openCount++;
      commands.push({ op: 'show', entry: next });
    }
    return commands;
  }

  private nextQueued(): ToastEntry | undefined {
    let best: ToastEntry | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.state !== 'queued') continue;
      if (
        !best ||
        (entry.content.critical && !best.content.critical) ||
        (entry.content.critical === best.content.critical && entry.seq < best.seq)
      ) {
        best = entry;
      }
    }
    return best;
  }
}
