import { ChangeFeed, type NotificationChange } from '../broker/change-feed.js';
import type { NotificationRecord } from '../domain/notification.js';
import type { Logger } from '../log/logger.js';

export interface FocusHoldDeps {
  settings: () => { quietWhileFocused: boolean; focusGraceSeconds: number };
  /** Whether the person looks at the notification's own place (its origin) right now. */
  hasFocus: (record: NotificationRecord) => Promise<boolean>;
  /** The notification as it is now, after the grace time; undefined when it is gone. */
  current: (id: string) => NotificationRecord | undefined;
  log: Pick<Logger, 'info'>;
}

interface Held {
  change: NotificationChange;
  timer?: NodeJS.Timeout;
}

/**
 * Quiet while looking (docs/focus.md): stands between the committed changes and the toasts and sounds.
 * A new or raised request whose own place has the person's focus waits `focusGraceSeconds`, and is
 * dropped when it ends meanwhile (the person answered in the terminal); otherwise it goes on as it
 * was. Status changes, and notifications that do not say where they run, pass at once. The tray, the
 * page and the phone routes read the changes themselves and never wait here.
 */
export class FocusHold {
  /** The changes toasts and sounds act on. */
  readonly out: ChangeFeed;
  readonly #held = new Map<string, Held>();

  constructor(
    private readonly deps: FocusHoldDeps,
    onListenerError?: (error: unknown) => void,
  ) {
    this.out = new ChangeFeed(onListenerError);
  }

  readonly onChange = (change: NotificationChange): void => {
    const { record } = change;
    const held = this.#held.get(record.id);
    if (change.kind === 'status') {
      if (held) {
        this.#held.delete(record.id);
        // Ended while its focus was still being asked about: there is nothing left to show either.
        if (held.timer !== undefined) {
          clearTimeout(held.timer);
          this.deps.log.info(
            `notification ${record.id}: no toast or sound, it ended while its place had focus`,
          );
        }
      }
      return this.out.publish(change);
    }
    if (held) {
      // One wait per notification: an update while it waits replaces what will show.
      held.change =
        held.change.kind === 'updated' && change.kind === 'updated'
          ? { ...change, previous: held.change.previous }
          : { ...held.change, record };
      return;
    }
    const settings = this.deps.settings();
    if (!settings.quietWhileFocused || record.origin === undefined) return this.out.publish(change);
    const entry: Held = { change };
    this.#held.set(record.id, entry);
    void this.deps
      .hasFocus(record)
      .then((focused) => this.#decide(record.id, entry, focused, settings.focusGraceSeconds));
  };

  #decide(id: string, entry: Held, focused: boolean, graceSeconds: number): void {
    if (this.#held.get(id) !== entry) return;
    if (!focused) {
      this.#held.delete(id);
      return this.out.publish(entry.change);
    }
    this.deps.log.info(
      `notification ${id}: its place has focus; toast and sound wait ${graceSeconds} s (quietWhileFocused)`,
    );
    entry.timer = setTimeout(() => {
      this.#held.delete(id);
      const now = this.deps.current(id);
      if (now?.status === 'active') this.out.publish({ ...entry.change, record: now });
    }, graceSeconds * 1000);
    entry.timer.unref();
  }

  stop(): void {
    for (const held of this.#held.values()) clearTimeout(held.timer);
    this.#held.clear();
  }
}
