import type { AlertEvent } from '../broker/alert-feed.js';
import type { NotificationChange } from '../broker/change-feed.js';
import type { Clock } from '../broker/clock.js';
import type { NotificationRecord } from '../domain/notification.js';
import { quietHoldsBack, type QuietHours } from '../domain/quiet-hours.js';
import type { Logger } from '../log/logger.js';
import type { TypeCatalog } from '../domain/type-definition.js';
import { answeredAction, type ToastAction, type ToastDisplay } from './toast-display.js';
import { ToastQueue, type ToastCommand } from './toast-queue.js';
import { sampleToast, toastContent, type ToastContent } from './toast-style.js';

export class ToastsOffError extends Error {
  override name = 'ToastsOffError';
}

export interface PresenterSettings {
  pauseNotifications: boolean;
  maxVisibleToasts: number;
  types: TypeCatalog;
  quietHours?: QuietHours;
}

export interface ToastPresenterDeps {
  display: ToastDisplay;
  settings: () => PresenterSettings;
  /**
   * Changes a notification's status, or answers it, through the same service code as the API; an
   * answer names the revision the toast showed.
   */
  act: (notificationId: string, action: ToastAction, revision: number) => Promise<unknown>;
  log: Logger;
  /** Told each time toasts come on or go off, with what shows them or why not (the banner, doctor). */
  status?: (on: boolean, detail: string) => void;
  /** Whether sounds play without toasts (soundsAvailable): the WARN line names only what is off. */
  soundsOn: boolean;
  /** What quiet hours and snoozes are measured against; the system clock by default. */
  clock?: Clock;
}

const RECENT_LIMIT = 200;

/** What one toast on screen shows. */
interface Shown {
  id: string;
  revision: number;
}
const ACTION_DONE = { resolve: 'resolved', dismiss: 'dismissed', snooze: 'snoozed' } as const;
/** Toasts owed at most while there is no display (the newest): a machine without a desktop keeps few. */
const OWED_LIMIT = 500;

/**
 * Turns committed changes into toasts. `handle` runs on the request path, so it only updates the
 * queue's bookkeeping; the display calls run one after another on a worker, so a burst never puts more
 * than one call in flight and never more than maxVisibleToasts toasts on screen.
 */
export class ToastPresenter {
  readonly #queue: ToastQueue;
  readonly #pending: ToastCommand[] = [];
  /**
   * Display id → what recent toasts show, the notification and its revision: a server may report the
   * close before the action, and a button answers the revision on screen even when a newer one is on
   * its way to replace it.
   */
  readonly #recent = new Map<number, Shown>();
  /**
   * Signals about a display id whose show has not answered yet: a server's signal can arrive in the same
   * read as its answer, before the answer is seen. They are replayed once the answer names that id.
   */
  readonly #early = new Map<number, (() => void)[]>();
  #working = false;
  #stopped = false;
  #available = false;
  #serverName = '';
  /** The last reason given for being off: one WARN line per outage, not one per attempt. */
  #offReason: string | undefined;
  /**
   * Toasts owed while there is no display: those it took with it and those of notifications stored
   * meanwhile, with their newest content; shown once a display is back if still active. A stored one's
   * content is made when it is shown: a machine with no display (a server, a container) never makes it
   * (issue 38: it was a create's largest cost after the write itself).
   */
  readonly #owed = new Map<string, () => ToastContent>();

  constructor(private readonly deps: ToastPresenterDeps) {
    this.#queue = new ToastQueue(() => deps.settings().maxVisibleToasts);
  }

  start(): void {
    this.deps.display.start({
      available: (name) => {
        if (!this.#available) this.deps.log.info(`toasts are on: notification server ${name}`);
        this.#available = true;
        this.#serverName = name;
        this.#offReason = undefined;
        this.deps.status?.(true, `shown by ${name}`);
        this.#showOwed();
      },
      unavailable: (reason) => {
        this.#available = false;
        for (const content of this.#queue.clear()) this.#owe(content.notificationId, () => content);
        this.#pending.length = 0;
        if (this.#offReason === undefined)
          this.deps.log.warn(`${this.deps.soundsOn ? 'toasts are' : 'toasts and sounds are'} off: ${reason}`);
        this.#offReason = reason;
        this.deps.status?.(false, reason);
      },
      closed: (displayId) => this.#closed(displayId),
      action: (displayId, action) => this.#afterShow(displayId, () => void this.#act(displayId, action)),
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#pending.length = 0;
    this.deps.display.stop();
  }

  handle(change: NotificationChange): void {
    const { record } = change;
    if (record.status !== 'active') {
      this.#owed.delete(record.id);
      return this.#run(this.#queue.remove(record.id));
    }
    if (this.deps.settings().pauseNotifications) return;
    // Snoozed, or quiet hours: no new toast; one already on screen or waiting still shows the update.
    if (this.#keepsQuiet(record) && !this.#queue.has(record.id) && !this.#owed.has(record.id)) return;
    this.#present(record);
  }

  /** Snoozed: its toast closes. Alerting again (snooze ended, a reminder): it shows again, in front. */
  alert(event: AlertEvent): void {
    const { record } = event;
    if (event.kind === 'snoozed') {
      this.#owed.delete(record.id);
      return this.#run(this.#queue.remove(record.id));
    }
    if (record.status !== 'active' || this.deps.settings().pauseNotifications) return;
    // On screen still: closed first, so the server shows it anew rather than quietly replacing it.
    this.#run(this.#queue.remove(record.id));
    this.#present(record);
  }

  #keepsQuiet(record: NotificationRecord): boolean {
    const now = (this.deps.clock ?? Date.now)();
    if (record.snoozedUntil !== undefined && record.snoozedUntil > now) return true;
    return quietHoldsBack(this.deps.settings().quietHours, record.priority, now);
  }

  #present(record: NotificationRecord): void {
    const content = () => toastContent(record, this.deps.settings().types);
    if (!this.#available) this.#owe(record.id, content);
    else this.#run(this.#queue.upsert(content()));
  }

  #owe(id: string, content: () => ToastContent): void {
    this.#owed.set(id, content);
    // Trimmed in bulk once twice the limit is owed: dropping the oldest with every create cost each
    // create on a machine without a display more than the rest of its presentation (issue 38).
    if (this.#owed.size >= 2 * OWED_LIMIT) this.#keepNewestOwed();
  }

  #keepNewestOwed(): void {
    for (const id of this.#owed.keys()) {
      if (this.#owed.size <= OWED_LIMIT) return;
      this.#owed.delete(id);
    }
  }

  /** A display is back: the newest toasts it (or the last one) owes, in the order they were owed. */
  #showOwed(): void {
    this.#keepNewestOwed();
    const owed = [...this.#owed.values()];
    this.#owed.clear();
    if (this.deps.settings().pauseNotifications) return;
    for (const content of owed) this.#run(this.#queue.upsert(content()));
  }

  /**
   * Shows the sample toast now, outside the queue (a person asked for it and waits for the answer).
   * Resolves to the display's name; rejects with ToastsOffError when there is nothing to show it on.
   */
  async showSample(): Promise<{ server: string; toastId: number }> {
    if (!this.#available) throw new ToastsOffError(`toasts are off: ${this.#offReason ?? 'starting'}`);
    const toastId = await this.deps.display.show(sampleToast(), 0);
    return { server: this.#serverName, toastId };
  }

  /** Settings changed: a larger maxVisibleToasts opens waiting toasts at once. */
  settingsChanged(): void {
    this.#run(this.#queue.fill());
  }

  async #act(displayId: number, action: ToastAction): Promise<void> {
    const shown = this.#recent.get(displayId);
    if (!shown) return;
    const { id } = shown;
    try {
      await this.deps.act(id, action, shown.revision);
      // An answer has its audit line from the service, the page's opening its own.
      if (answeredAction(action) === undefined && action !== 'default' && action !== 'open')
        this.deps.log.info(
          `notification ${id} ${ACTION_DONE[action as keyof typeof ACTION_DONE]} from its toast`,
        );
    } catch (error) {
      this.deps.log.warn(`the toast's ${action} of notification ${id} failed: ${(error as Error).message}`);
    }
  }

  #run(commands: ToastCommand[]): void {
    if (commands.length === 0) return;
    this.#pending.push(...commands);
    if (!this.#working) void this.#work();
  }

  async #work(): Promise<void> {
    this.#working = true;
    try {
      for (let command = this.#pending.shift(); command; command = this.#pending.shift()) {
        await this.#execute(command);
      }
    } finally {
      this.#working = false;
    }
  }

  async #execute({ op, entry }: ToastCommand): Promise<void> {
    try {
      if (op === 'show') {
        // An update may replace entry.content while this show is under way: remember what went out.
        const { content } = entry;
        entry.displayId = await this.deps.display.show(content, entry.displayId);
        this.#remember(entry.displayId, { id: content.notificationId, revision: content.revision });
        const early = this.#early.get(entry.displayId);
        this.#early.delete(entry.displayId);
        early?.forEach((replay) => replay());
      } else if (entry.displayId !== 0) await this.deps.display.close(entry.displayId);
    } catch (error) {
      if (op === 'show' && !this.#stopped) {
        this.deps.log.warn(`toast not shown: ${(error as Error).message}`);
        this.#pending.push(...this.#queue.forget(entry.content.notificationId));
      }
    }
  }

  #closed(displayId: number): void {
    this.#afterShow(displayId, () => this.#run(this.#queue.closed(displayId)));
  }

  /** Runs `handle` now for a known toast, or once a show in flight answers with this id. */
  #afterShow(displayId: number, handle: () => void): void {
    if (this.#recent.has(displayId) || !this.#queue.hasShowInFlight()) return handle();
    const waiting = this.#early.get(displayId) ?? [];
    waiting.push(handle);
    this.#early.set(displayId, waiting);
    if (this.#early.size > RECENT_LIMIT) this.#early.delete(this.#early.keys().next().value!);
  }

  #remember(displayId: number, shown: Shown): void {
    this.#recent.delete(displayId);
    this.#recent.set(displayId, shown);
    if (this.#recent.size > RECENT_LIMIT) this.#recent.delete(this.#recent.keys().next().value!);
  }
}
