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
}

/**
 * The tray icon on Linux: a StatusNotifierItem with a dbusmenu, registered with the panel's
 * StatusNotifierWatcher. Without a watcher: one WARN line, no icon. `refresh` only schedules work.
 */
export class Tray {
  #connection: DbusConnection | undefined;
  readonly #item = new StatusNotifierItem();
  readonly #menu = new DbusMenu((entry) => void this.#click(entry));
  #scheduled = false;
  #stopped = false;

  constructor(private readonly deps: TrayDeps) {}

  async start(): Promise<void> {
    if (!this.deps.address) return;
    try {
      const connection = await DbusConnection.open(this.deps.address);
      if (this.#stopped) return connection.close();
      this.#connection = connection;
      if (!(await connection.nameHasOwner(WATCHER_NAME))) {
        this.deps.log.warn(
          `tray icon is off: no StatusNotifierWatcher on the session D-Bus (${WATCHER_NAME})`,
        );
        return;
      }
      this.#update();
      connection.export(ITEM_PATH, this.#item);
      connection.export(DBUSMENU.path, this.#menu);
      const name = `org.kde.StatusNotifierItem-${process.pid}-1`;
      await connection.requestName(name);
      await connection.call(WATCHER_NAME, WATCHER_PATH, WATCHER_NAME, 'RegisterStatusNotifierItem', 's', [
        name,
      ]);
      this.deps.log.info(`tray icon registered as ${name}`);
    } catch (error) {
      this.deps.log.warn(`tray icon is off: ${(error as Error).message}`);
    }
  }

  /** Something changed: recompute the icon and menu soon, once for a burst of changes. */
  refresh(): void {
    if (this.#scheduled || !this.#connection) return;
    this.#scheduled = true;
    setTimeout(() => {
      this.#scheduled = false;
      if (!this.#stopped && this.#connection?.isOpen) this.#publish();
    }, 50).unref();
  }

  stop(): void {
    this.#stopped = true;
    this.#connection?.close();
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
