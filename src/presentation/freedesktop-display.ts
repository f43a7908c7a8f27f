import type * as Dbus from './dbus.js';
import { answerKey, isToastAction, type ToastDisplay, type ToastDisplayEvents } from './toast-display.js';
import { escapeMarkup, mayLoseText, type ToastContent } from './toast-style.js';
import { TERMINAL_ONLY } from '../domain/display-controls.js';
import { TOAST_SNOOZE_MINUTES } from '../domain/snooze.js';

/** Last, so a server that shows only the first few buttons keeps the answers. */
const SNOOZE_BUTTON = ['snooze', `Snooze ${TOAST_SNOOZE_MINUTES} min`];

export const NOTIFICATIONS_NAME = 'org.freedesktop.Notifications';
export const NOTIFICATIONS_PATH = '/org/freedesktop/Notifications';
const APP_NAME = 'Notify';
/** The default action's label when the toast knows where its agent runs. */
export const FOCUS_LABEL = 'Go to the agent';
const DESKTOP_ENTRY = 'notify';

export interface FreedesktopOptions {
  /** The session bus address; undefined when the environment names none. */
  address: string | undefined;
  /** Pause between attempts to reach a bus that is gone. */
  reconnectMs?: number;
  /** A click on a toast (its `default` action) opens the web page. */
  openPage?: boolean;
}

/**
 * Toasts through the freedesktop Desktop Notifications service on the session D-Bus. Follows the
 * server's coming and going (NameOwnerChanged) and reconnects to a bus that went away. A toast's close
 * and button press count only from the server that showed it: any program on the bus can send those
 * signals, and a button press may approve a command. The D-Bus library is loaded with the first
 * connection, so a broker without a session bus never holds it.
 */
export class FreedesktopDisplay implements ToastDisplay {
  #events: ToastDisplayEvents | undefined;
  #dbus: typeof Dbus | undefined;
  #connection: Dbus.DbusConnection | undefined;
  #capabilities = new Set<string>();
  /** The signals of each notification server we call, by its unique name; one at a time in practice. */
  #servers = new Map<string, Promise<Dbus.SignalSubscription[]>>();
  #reconnect: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly options: FreedesktopOptions) {}

  start(events: ToastDisplayEvents): void {
    this.#events = events;
    if (!this.options.address) {
      events.unavailable('no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)');
      return;
    }
    void this.#connect(this.options.address);
  }

  async show(content: ToastContent, replacesId: number): Promise<number> {
    const connection = this.#requireConnection();
    const { Variant } = this.#dbus!;
    const { body, actions } = this.#buttonsAndBody(content);
    const hints = {
      urgency: new Variant('y', content.urgency),
      category: new Variant('s', `x-notify.${content.styleType}`),
      'desktop-entry': new Variant('s', DESKTOP_ENTRY),
    };
    const [id] = await connection.call(
      NOTIFICATIONS_NAME,
      NOTIFICATIONS_PATH,
      NOTIFICATIONS_NAME,
      'Notify',
      'susssasa{sv}i',
      [APP_NAME, replacesId, content.icon, content.summary, body, actions, hints, content.expireTimeoutMs],
    );
    return Number(id);
  }

  /**
   * A server that declares body-markup gets the text escaped, so it shows exactly, `<` and `&` too. One
   * that does not may still strip tags (a dunst rule): when the text holds anything it could eat, the
   * toast offers no answer buttons, and says where to answer, rather than let someone approve a command
   * they saw only in part. A request whose text holds direction or invisible characters gets no answer
   * buttons either, and says to answer in the terminal.
   */
  #buttonsAndBody(content: ToastContent): { body: string; actions: string[] } {
    const markup = this.#capabilities.has('body-markup');
    const body = markup ? escapeMarkup(content.body) : content.body;
    if (!content.actionable || !this.#capabilities.has('actions')) return { body, actions: [] };
    // Servers show no button for the default action: it is what a click on the toast does.
    // With an origin the click goes to the agent, and Open Notify becomes a button of its own.
    const page = this.options.openPage ? ['Open Notify'] : [];
    const open = content.focusable
      ? ['default', FOCUS_LABEL, ...page.flatMap((label) => ['open', label])]
      : page.flatMap((label) => ['default', label]);
    if (content.terminalOnly)
      return {
        body: `${body}\n${TERMINAL_ONLY}`,
        actions: [...open, 'dismiss', 'Dismiss', ...SNOOZE_BUTTON],
      };
    if (content.choices.length === 0)
      return { body, actions: [...open, 'resolve', 'Resolve', 'dismiss', 'Dismiss', ...SNOOZE_BUTTON] };
    if (!markup && mayLoseText(content.body)) {
      return {
        body: `${body}\nAnswer with notifyctl pending / notifyctl answer: this notification server may hide part of the text.`,
        actions: [...open, 'dismiss', 'Dismiss', ...SNOOZE_BUTTON],
      };
    }
    return {
      body,
      actions: [
        ...open,
        ...content.choices.flatMap((choice) => [answerKey(choice.id), choice.label]),
        ...SNOOZE_BUTTON,
      ],
    };
  }

  async close(displayId: number): Promise<void> {
    await this.#requireConnection().call(
      NOTIFICATIONS_NAME,
      NOTIFICATIONS_PATH,
      NOTIFICATIONS_NAME,
      'CloseNotification',
      'u',
      [displayId],
    );
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#reconnect);
    this.#connection?.close();
  }

  #requireConnection(): Dbus.DbusConnection {
    if (!this.#connection?.isOpen) throw new Error('the session D-Bus is not connected');
    return this.#connection;
  }

  async #connect(address: string): Promise<void> {
    const events = this.#events!;
    let connection: Dbus.DbusConnection;
    try {
      this.#dbus ??= await import('./dbus.js');
      connection = await this.#dbus.DbusConnection.open(address);
    } catch (error) {
      events.unavailable(`cannot connect to the session D-Bus: ${(error as Error).message}`);
      return this.#scheduleReconnect(address);
    }
    if (this.#stopped) return connection.close();
    this.#connection = connection;
    this.#servers = new Map();
    connection.onClose((reason) => {
      if (this.#stopped) return;
      events.unavailable(`lost the session D-Bus: ${reason}`);
      this.#scheduleReconnect(address);
    });
    try {
      await this.#follow(connection, events);
      const owner = await connection.nameOwner(NOTIFICATIONS_NAME);
      if (owner) return await this.#serverArrived(connection, owner);
      if (await connection.isActivatable(NOTIFICATIONS_NAME)) return await this.#serverArrived(connection);
      events.unavailable(`no notification server on the session D-Bus (${NOTIFICATIONS_NAME})`);
    } catch (error) {
      events.unavailable(`the session D-Bus did not answer: ${(error as Error).message}`);
    }
  }

  async #follow(connection: Dbus.DbusConnection, events: ToastDisplayEvents): Promise<void> {
    await connection.onNameOwnerChanged(NOTIFICATIONS_NAME, (owner, previous) => {
      if (previous) this.#ignore(previous);
      if (owner) void this.#serverArrived(connection, owner);
      else events.unavailable('the notification server left the session D-Bus');
    });
  }

  /** `owner` is the server's unique name when known; otherwise asked for once the server answered. */
  async #serverArrived(connection: Dbus.DbusConnection, owner?: string): Promise<void> {
    try {
      // The first call also starts a server that D-Bus activates on demand, so it has an owner after.
      const [capabilities] = await connection.call(
        NOTIFICATIONS_NAME,
        NOTIFICATIONS_PATH,
        NOTIFICATIONS_NAME,
        'GetCapabilities',
      );
      const server = owner ?? (await connection.nameOwner(NOTIFICATIONS_NAME));
      if (!server) throw new Error('it left the session D-Bus');
      await this.#listenTo(connection, server);
      this.#capabilities = new Set(Array.isArray(capabilities) ? (capabilities as string[]) : []);
      const [name, , version] = await connection.call(
        NOTIFICATIONS_NAME,
        NOTIFICATIONS_PATH,
        NOTIFICATIONS_NAME,
        'GetServerInformation',
      );
      this.#events!.available(`${String(name)} ${String(version)}`);
    } catch (error) {
      this.#events!.unavailable(`the notification server did not answer: ${(error as Error).message}`);
    }
  }

  /** Takes closes and button presses from `server` (a unique name), and from nobody else. */
  async #listenTo(connection: Dbus.DbusConnection, server: string): Promise<void> {
    if (!this.#servers.has(server)) {
      const events = this.#events!;
      const from = { sender: server, path: NOTIFICATIONS_PATH, interface: NOTIFICATIONS_NAME };
      const subscribed = Promise.all([
        connection.onSignal({ ...from, member: 'NotificationClosed' }, ([id]) => events.closed(Number(id))),
        connection.onSignal({ ...from, member: 'ActionInvoked' }, ([id, key]) => {
          if (isToastAction(key)) events.action(Number(id), key);
        }),
      ]);
      this.#servers.set(server, subscribed);
      subscribed.catch(() => this.#servers.delete(server));
    }
    await this.#servers.get(server);
  }

  /** `server` no longer owns the name: whatever it still sends is not about our toasts. */
  #ignore(server: string): void {
    const subscribed = this.#servers.get(server);
    this.#servers.delete(server);
    void subscribed
      ?.then((subscriptions) => Promise.all(subscriptions.map((subscription) => subscription.cancel())))
      .catch(() => {});
  }

  #scheduleReconnect(address: string): void {
    if (this.#stopped) return;
    clearTimeout(this.#reconnect);
    this.#reconnect = setTimeout(() => void this.#connect(address), this.options.reconnectMs ?? 2000);
    this.#reconnect.unref();
  }
}
