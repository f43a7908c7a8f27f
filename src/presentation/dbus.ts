import { EventEmitter } from 'node:events';
import {
  DBusError,
  interface as dbusInterface,
  Message,
  MessageType,
  sessionBus,
  Variant,
  type MessageBus,
} from '@jellybrick/dbus-next';

/**
 * The one module that knows the D-Bus library (@jellybrick/dbus-next; docs/desktop.md says why that
 * one). Everything else speaks through DbusConnection, so swapping the library touches this file only.
 */
export { Variant };

/**
 * Base class of an object exported on the bus; members are declared with the static `configureMembers`.
 * The library's compiled constructor defines `$methods` / `$properties` / `$signals` as own fields set to
 * undefined, which hides what `configureMembers` put on the prototype; dropping those empty own fields
 * lets the prototype's declarations through.
 */
export class DbusObject extends dbusInterface.Interface {
  constructor(name: string) {
    super(name);
    for (const field of ['$methods', '$properties', '$signals'] as const) {
      if (Object.hasOwn(this, field) && this[field] === undefined) delete this[field];
    }
  }
}

const BUS_NAME = 'org.freedesktop.DBus';
const BUS_PATH = '/org/freedesktop/DBus';

export interface SignalMatch {
  /**
   * The one connection whose signals count: a unique name (":1.42"), or the bus itself. Any program on
   * the session bus can send any signal, so a signal is only as true as its sender.
   */
  sender: string;
  path: string;
  interface: string;
  member: string;
  /** Only signals whose first argument is this string (the bus filters too, so others never arrive). */
  arg0?: string;
}

/** The library emits 'error' on the bus without declaring it in its event map. */
const errors = (bus: MessageBus) => bus as unknown as EventEmitter;

type SignalListener = (body: unknown[]) => void;

/** A subscription to signals; cancel it when its sender no longer speaks for what it was followed for. */
export interface SignalSubscription {
  cancel(): Promise<void>;
}

/** A connection to one bus: method calls, signal subscriptions, exported objects, and its end. */
export class DbusConnection {
  readonly #bus: MessageBus;
  readonly #closed = new EventEmitter();
  readonly #exported = new Set<string>();
  #open = true;

  private constructor(bus: MessageBus) {
    this.#bus = bus;
    // The library's bus forwards stream errors but not a clean end of the stream: both mean it is gone.
    const connection = (bus as unknown as { _connection: EventEmitter })._connection;
    connection.once('end', () => this.#lost('the bus closed the connection'));
    errors(bus).on('error', (error: Error) => this.#lost(error.message));
  }

  /** Connects and says hello; rejects within `timeoutMs` when nothing answers at that address. */
  static open(address: string, timeoutMs = 3000): Promise<DbusConnection> {
    return new Promise((resolve, reject) => {
      const bus = sessionBus({ busAddress: address });
      const timer = setTimeout(() => {
        bus.disconnect();
        reject(new Error(`no answer from ${address} within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        bus.disconnect();
        reject(error);
      };
      errors(bus).once('error', fail);
      bus.once('connect', () => {
        clearTimeout(timer);
        errors(bus).off('error', fail);
        resolve(new DbusConnection(bus));
      });
    });
  }

  get isOpen(): boolean {
    return this.#open;
  }

  /** This connection's unique name on the bus (":1.42"). */
  get uniqueName(): string {
    return this.#bus.name ?? '';
  }

  /** Calls a method; resolves to the reply's body, rejects with the D-Bus error's text. */
  async call(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature = '',
    body: unknown[] = [],
  ): Promise<unknown[]> {
    const message = new Message({ destination, path, interface: iface, member, signature, body });
    const reply = await this.#bus.call(message);
    return reply?.body ?? [];
  }

  callBus(member: string, signature = '', body: unknown[] = []): Promise<unknown[]> {
    return this.call(BUS_NAME, BUS_PATH, BUS_NAME, member, signature, body);
  }

  /**
   * Asks the bus for matching signals and hands their bodies to `listener`. The sender is checked here
   * too: the match rule only filters broadcasts, and a signal sent to us directly arrives regardless.
   */
  async onSignal(match: SignalMatch, listener: SignalListener): Promise<SignalSubscription> {
    const onMessage = (message: Message) => {
      if (
        message.type === MessageType.SIGNAL &&
        message.sender === match.sender &&
        message.path === match.path &&
        message.interface === match.interface &&
        message.member === match.member &&
        (match.arg0 === undefined || message.body[0] === match.arg0)
      ) {
        listener(message.body);
      }
    };
    this.#bus.on('message', onMessage);
    const arg0 = match.arg0 === undefined ? '' : `,arg0='${match.arg0}'`;
    const rule = `type='signal',sender='${match.sender}',path='${match.path}',interface='${match.interface}',member='${match.member}'${arg0}`;
    await this.callBus('AddMatch', 's', [rule]);
    return {
      cancel: async () => {
        this.#bus.off('message', onMessage);
        if (this.#open) await this.callBus('RemoveMatch', 's', [rule]);
      },
    };
  }

  /**
   * Follows a well-known name changing hands, e.g. a desktop service that starts after us or restarts:
   * `listener` gets the new owner's unique name ('' when the name was released) and the previous one
   * ('' when nobody had it). Only the bus itself reports this.
   */
  async onNameOwnerChanged(name: string, listener: (owner: string, previous: string) => void): Promise<void> {
    await this.onSignal(
      { sender: BUS_NAME, path: BUS_PATH, interface: BUS_NAME, member: 'NameOwnerChanged', arg0: name },
      (body) => listener(String(body[2]), String(body[1])),
    );
  }

  /** The unique name of `name`'s owner, or undefined when nobody owns it. */
  async nameOwner(name: string): Promise<string | undefined> {
    try {
      const [owner] = await this.callBus('GetNameOwner', 's', [name]);
      return String(owner);
    } catch (error) {
      if (error instanceof DBusError && error.type === 'org.freedesktop.DBus.Error.NameHasNoOwner')
        return undefined;
      throw error;
    }
  }

  async isActivatable(name: string): Promise<boolean> {
    const [names] = await this.callBus('ListActivatableNames');
    return Array.isArray(names) && names.includes(name);
  }

  /** True when this connection now owns `name`. */
  async requestName(name: string): Promise<boolean> {
    const reply = await this.#bus.requestName(name, 0);
    return reply === 1 || reply === 4;
  }

  export(path: string, object: DbusObject): void {
    this.#bus.export(path, object);
    this.#exported.add(path);
  }

  /** Sends a signal to everyone who asked for it, or with `destination` to that connection only. */
  emitSignal(
    path: string,
    iface: string,
    member: string,
    signature: string,
    body: unknown[],
    destination?: string,
  ): void {
    const message = Message.newSignal(path, iface, member, signature, body);
    if (destination) message.destination = destination;
    this.#bus.send(message);
  }

  /** Called once when the connection ends, whoever ended it. */
  onClose(listener: (reason: string) => void): void {
    this.#closed.once('close', listener);
  }

  close(): void {
    if (!this.#open) return;
    this.#bus.disconnect();
    this.#lost('closed');
  }

  #lost(reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    // The library hooks an exported object to its bus: unhooked, the dead bus does not hold it.
    for (const path of this.#exported) this.#bus.unexport(path);
    this.#closed.emit('close', reason);
  }
}
