import type { ToastContent } from './toast-style.js';

/** One notification's toast: open on the desktop (or being opened), or waiting for a slot. */
export interface ToastEntry {
  content: ToastContent;
  state: 'open' | 'queued';
  /** The display's id once the show call answered; 0 before. */
  displayId: number;
}

/** What the queue asks its display to do, in order. Commands name entries, not ids: a show may still be in flight. */
export type ToastCommand = { op: 'show'; entry: ToastEntry } | { op: 'close'; entry: ToastEntry };

/**
 * Which toasts are open and which wait (issue 8): at most `maxVisible()` open; waiting ones are shown
 * critical first, then in arrival order, as slots free. A critical toast never waits while a lower one
 * is open (issue 20): the oldest lower open toast gives up its slot and comes back, before anything that
 * arrived after it, when a slot frees. Pure bookkeeping; the presenter runs the commands.
 */
export class ToastQueue {
  /** Open toasts (at most maxVisible()): the only ones a display id can name. */
  readonly #open = new Map<string, ToastEntry>();
  /** Waiting toasts in arrival order; a burst can leave thousands here, so nothing scans them whole. */
  readonly #queued = new Map<string, ToastEntry>();
  /** How many waiting toasts are critical: only then does a pick look past the first one. */
  #queuedCritical = 0;
  /** Toasts that gave up their slot to a critical one, oldest first: they come back before #queued. */
  readonly #displaced = new Map<string, ToastEntry>();

  constructor(private readonly maxVisible: () => number) {}

  get openCount(): number {
    return this.#open.size;
  }

  get queuedCount(): number {
    return this.#queued.size + this.#displaced.size;
  }

  /** A stored notification to show: replaces its open toast, refreshes its queued one, or takes a slot. */
  upsert(content: ToastContent): ToastCommand[] {
    const open = this.#open.get(content.notificationId);
    if (open) {
      open.content = content;
      return [{ op: 'show', entry: open }];
    }
    const displaced = this.#displaced.get(content.notificationId);
    if (displaced && !content.critical) {
      displaced.content = content;
      return [];
    }
    if (displaced) this.#displaced.delete(content.notificationId);
    const queued = this.#queued.get(content.notificationId);
    if (queued) {
      this.#queuedCritical += Number(content.critical) - Number(queued.content.critical);
      queued.content = content;
      return this.fill();
    }
    const entry: ToastEntry = { content, state: 'queued', displayId: 0 };
    this.#queued.set(content.notificationId, entry);
    if (content.critical) this.#queuedCritical++;
    return this.fill();
  }

  /** Whether the notification has a toast open or waiting. */
  has(notificationId: string): boolean {
    return (
      this.#open.has(notificationId) ||
      this.#queued.has(notificationId) ||
      this.#displaced.has(notificationId)
    );
  }

  /** The notification is no longer active: close its toast, or drop it unseen from the queue. */
  remove(notificationId: string): ToastCommand[] {
    if (this.#unqueue(notificationId)) return [];
    const entry = this.#open.get(notificationId);
    if (!entry) return [];
    this.#open.delete(notificationId);
    return [{ op: 'close', entry }, ...this.fill()];
  }

  /** A show that failed: the toast never opened, so its slot goes to the next without a close. */
  forget(notificationId: string): ToastCommand[] {
    if (!this.#unqueue(notificationId) && !this.#open.delete(notificationId)) return [];
    return this.fill();
  }

  /** The display closed a toast (expired, clicked away, or closed by us): its slot goes to the next. */
  closed(displayId: number): ToastCommand[] {
    const entry = this.byDisplayId(displayId);
    if (!entry) return [];
    this.#open.delete(entry.content.notificationId);
    return this.fill();
  }

  byDisplayId(displayId: number): ToastEntry | undefined {
    if (displayId === 0) return undefined;
    for (const entry of this.#open.values()) {
      if (entry.displayId === displayId) return entry;
    }
    return undefined;
  }

  /** A toast was asked for whose display id is not known yet. */
  hasShowInFlight(): boolean {
    for (const entry of this.#open.values()) if (entry.displayId === 0) return true;
    return false;
  }

  /**
   * The display went away and took its toasts: forget them all, nothing left to close. Returns what
   * they showed, open ones first, so that they can be shown again when a display is back.
   */
  clear(): ToastContent[] {
    const contents = [...this.#open.values(), ...this.#displaced.values(), ...this.#queued.values()].map(
      (entry) => entry.content,
    );
    this.#open.clear();
    this.#queued.clear();
    this.#displaced.clear();
    this.#queuedCritical = 0;
    return contents;
  }

  /**
   * Opens waiting toasts while slots are free (also after maxVisibleToasts grew), and a waiting critical
   * one at once in the slot of the oldest lower open toast when none is.
   */
  fill(): ToastCommand[] {
    const commands: ToastCommand[] = [];
    for (let next = this.#nextQueued(); next; next = this.#nextQueued()) {
      if (this.#open.size >= this.maxVisible()) {
        const lower = next.content.critical ? this.#oldestLowerOpen() : undefined;
        if (!lower) break;
        commands.push(...this.#displace(lower));
      }
      this.#unqueue(next.content.notificationId);
      next.state = 'open';
      this.#open.set(next.content.notificationId, next);
      commands.push({ op: 'show', entry: next });
    }
    return commands;
  }

  /** Critical first, then the displaced ones, then arrival order: the maps keep their order. */
  #nextQueued(): ToastEntry | undefined {
    if (this.#queuedCritical > 0) {
      for (const entry of this.#queued.values()) if (entry.content.critical) return entry;
    }
    return this.#displaced.values().next().value ?? this.#queued.values().next().value;
  }

  #oldestLowerOpen(): ToastEntry | undefined {
    for (const entry of this.#open.values()) if (!entry.content.critical) return entry;
    return undefined;
  }

  /**
   * Closes an open toast and keeps its notification waiting, as a new entry: the close names the toast
   * on screen (its show may still be in flight), the new entry opens a new one.
   */
  #displace(entry: ToastEntry): ToastCommand[] {
    const { notificationId } = entry.content;
    this.#open.delete(notificationId);
    this.#displaced.set(notificationId, { content: entry.content, state: 'queued', displayId: 0 });
    return [{ op: 'close', entry }];
  }

  /** Drops a waiting toast; false when it was not waiting. */
  #unqueue(notificationId: string): boolean {
    if (this.#displaced.delete(notificationId)) return true;
    const entry = this.#queued.get(notificationId);
    if (!entry) return false;
    this.#queued.delete(notificationId);
    if (entry.content.critical) this.#queuedCritical--;
    return true;
  }
}
