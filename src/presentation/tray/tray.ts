import type { NotificationRecord } from '../../domain/notification.js';
import type { Logger } from '../../log/logger.js';
import { DbusConnection } from '../dbus.js';
import { DBUSMENU, DbusMenu } from './dbusmenu.js';
import { ITEM_INTERFACE, ITEM_PATH, StatusNotifierItem } from './status-notifier-item.js';
import { trayState, type MenuEntry, type TrayCommand, type TraySettings } from './tray-model.js';

const WATCHER_NAME = 'org.kde.StatusNotifierWatcher';
const WATCHER_PATH = '/StatusNotifierWatcher';

export interface TrayDeps {
  /** The session bus address; undefined when none is set. */
  address: string | undefined;
  /** Active notifications, newest first. */
  active: () => NotificationRecord[];
  settings: () => TraySettings;
  run: (command: TrayCommand) => Promise<void>;
  log: Logger;
  /** Told each time the icon comes on or goes off, with why (the banner, doctor). */
  status?: (on: boolean, detail: string) => void;
}

/** Pause between attempts to reach a session bus that is gone, as the toast display does. */
const RECONNECT_MS = 2000;

/**
 * The tray icon on Linux: a StatusNotifierItem with a dbusmenu, registered with the panel's
 * StatusNotifierWatcher, and again with each watcher that appears later (a panel started after the
 * broker, or restarted). A session bus that goes away is reconnected to at the same address. One WARN
 * line when the icon goes off (no watcher at start, the panel left, the bus went away), one INFO line
 * when it is registered again. `refresh` only schedules work.
 */
export class Tray {
  #connection: DbusConnection | undefined;
  readonly #item = new StatusNotifierItem();
  readonly #menu = new DbusMenu((entry) => void this.#click(entry));
  readonly #name = `org.kde.StatusNotifierItem-${process.pid}-1`;
  /** The unique name of the watcher the item is registered with; undefined while no panel shows it. */
  #watcher: string | undefined;
  /** The icon is off and its WARN line was written: the outage is not reported again. */
  #off = false;
  #reconnect: NodeJS.Timeout | undefined;
  #scheduled = false;
  #stopped = false;

  constructor(private readonly deps: TrayDeps) {}

  async start(): Promise<void> {
    if (this.deps.address) await this.#connect(this.deps.address, false);
  }

  /** Something changed: recompute the icon and menu soon, once for a burst of changes. */
  refresh(): void {
    if (this.#scheduled || !this.#watcher) return;
    this.#scheduled = true;
    setTimeout(() => {
      this.#scheduled = false;
      if (!this.#stopped && this.#connection?.isOpen) this.#publish();
    }, 50).unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#reconnect);
    this.#connection?.close();
  }

  async #connect(address: string, again: boolean): Promise<void> {
    let connection: DbusConnection;
    try {
      connection = await DbusConnection.open(address);
    } catch (error) {
      this.#goOff(`cannot connect to the session D-Bus: ${(error as Error).message}`);
      return this.#scheduleReconnect(address);
    }
    if (this.#stopped) return connection.close();
    this.#connection = connection;
    connection.onClose((reason) => {
      this.#watcher = undefined;
      if (this.#stopped) return;
      this.#goOff(`lost the session D-Bus: ${reason}`);
      this.#scheduleReconnect(address);
    });
    try {
      connection.export(ITEM_PATH, this.#item);
      connection.export(DBUSMENU.path, this.#menu);
      await connection.requestName(this.#name);
      // Followed before the first look, so a watcher that starts in between is not missed.
      await connection.onNameOwnerChanged(WATCHER_NAME, (owner) => {
        if (owner) return void this.#register(owner, 'a StatusNotifierWatcher appeared on the session D-Bus');
        this.#watcher = undefined;
        this.#goOff('the StatusNotifierWatcher left the session D-Bus');
      });
      const owner = await connection.nameOwner(WATCHER_NAME);
      if (owner) await this.#register(owner, again ? 'reconnected to the session D-Bus' : undefined);
      else
        this.#goOff(
          `no StatusNotifierWatcher on the session D-Bus (${WATCHER_NAME})`,
          'no panel with a tray area',
        );
    } catch (error) {
      this.#goOff((error as Error).message);
    }
  }

  #scheduleReconnect(address: string): void {
    if (this.#stopped) return;
    clearTimeout(this.#reconnect);
    this.#reconnect = setTimeout(() => void this.#connect(address, true), RECONNECT_MS);
    this.#reconnect.unref();
  }

  /** Logged once an outage; the status (banner, doctor) always says the latest reason. */
  #goOff(reason: string, meaning?: string): void {
    this.deps.status?.(false, meaning ? `${reason}: ${meaning}` : reason);
    if (this.#off) return;
    this.#off = true;
    this.deps.log.warn(`tray icon is off: ${reason}`);
  }

  /**
   * Registers the item with the watcher `owner`, once per watcher: the first look and the owner-change
   * signal can both report the same one.
   */
  async #register(owner: string, why?: string): Promise<void> {
    if (this.#stopped || owner === this.#watcher) return;
    this.#watcher = owner;
    // The panel reads the properties right after registering; the icon was not kept current without one.
    this.#update();
    try {
      await this.#connection!.call(
        WATCHER_NAME,
        WATCHER_PATH,
        WATCHER_NAME,
        'RegisterStatusNotifierItem',
        's',
        [this.#name],
      );
      this.#off = false;
      this.deps.log.info(`tray icon registered as ${this.#name}${why ? `: ${why}` : ''}`);
      this.deps.status?.(true, "in the panel's tray area (StatusNotifierItem)");
    } catch (error) {
      if (this.#watcher === owner) this.#watcher = undefined;
      this.#goOff((error as Error).message);
    }
  }

  #update(): void {
    const state = trayState(this.deps.active(), this.deps.settings());
    this.#item.state = state;
    this.#menu.entries = state.menu;
  }

  #publish(): void {
    this.#update();
    const connection = this.#connection!;
    connection.emitSignal(ITEM_PATH, ITEM_INTERFACE, 'NewStatus', 's', [this.#item.Status]);
    connection.emitSignal(ITEM_PATH, ITEM_INTERFACE, 'NewTitle', '', []);
    connection.emitSignal(ITEM_PATH, ITEM_INTERFACE, 'NewToolTip', '', []);
    connection.emitSignal(ITEM_PATH, ITEM_INTERFACE, 'NewIcon', '', []);
    connection.emitSignal(DBUSMENU.path, DBUSMENU.interface, 'LayoutUpdated', 'ui', [this.#menu.revision, 0]);
  }

  async #click(entry: MenuEntry): Promise<void> {
    if (!entry.command) return;
    try {
      await this.deps.run(entry.command);
      this.deps.log.info(`tray menu: ${entry.label}`);
    } catch (error) {
      this.deps.log.warn(`tray menu "${entry.label}" failed: ${(error as Error).message}`);
    }
    this.refresh();
  }
}
